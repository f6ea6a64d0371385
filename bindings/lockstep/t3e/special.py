"""The T3E's special network from Python (hardware manual, "Special Routing"): SPUT and SGET
of router registers over delta routes, and the bootstrapping use the manual gives it, finding
the machine's shape before any node has a number.

    sim = ls.Simulator(cfg)                        # router.family = "t3e"
    ls.t3e.special.sput(sim, 0, [0, 2, 0, 1, 0, 1], "R_SW", 0xABC)   # from router 0's PE
    sim.step(30)
    ls.t3e.special.ring_sizes(sim)                 # (kx, ky, kz), found over the special network

A header (kernels/t3e/special_header.hpp): six deltas (primary X, Y, Z, secondary X, Y, Z;
-32..31), the kind (SPUT, SGET, SGET response) and the register (R_SW, R_SGET_RTRN). A hop
takes ``t3e.fall_through_turn`` clocks. Commands go in the ``special_command`` state array and
leave at the next clock; responses land in ``special_received``.
"""

from __future__ import annotations

from typing import Sequence

from ..simulate import Simulator

KINDS = {"SPUT": 1, "SGET": 2, "RESPONSE": 3}
REGISTERS = {"R_SW": 0, "R_SGET_RTRN": 1}
VALID = 1 << 63


def deltas(values: Sequence[int]) -> int:
    """Six deltas (fewer: the rest 0) packed as R_SGET_RTRN and headers hold them."""
    if len(values) > 6 or any(not -32 <= d <= 31 for d in values):
        raise ValueError(f"deltas = {list(values)}: allowed at most six, each in -32..31")
    return sum((d & 63) << (6 * i) for i, d in enumerate(values))


def header(kind: str, register: str, route: Sequence[int]) -> int:
    return VALID | KINDS[kind] << 40 | REGISTERS[register] << 42 | deltas(route)


def _command(sim: Simulator, router: int, word: int, value: int) -> None:
    cmd = sim.state("special_command")
    cmd[..., router, 0] = word
    cmd[..., router, 1] = value
    sim.set_state("special_command", cmd)


def sput(sim: Simulator, router: int, route: Sequence[int], register: str, value: int) -> None:
    """Router `router`'s PE writes `value` into `register` of the router `route` leads to."""
    _command(sim, router, header("SPUT", register, route), value)


def sget(sim: Simulator, router: int, route: Sequence[int], register: str) -> None:
    """Router `router`'s PE asks for `register` of the router `route` leads to; the answer
    comes back over that router's R_SGET_RTRN deltas into `received`."""
    _command(sim, router, header("SGET", register, route), 0)


def received(sim: Simulator, router: int, instance: int = 0) -> int | None:
    """The value of the last SGET response router `router`'s PE received, None if none."""
    got = sim.state("special_received")
    got = got[instance] if got.ndim == 3 else got
    return int(got[router, 1]) if int(got[router, 0]) & VALID else None


def clear_received(sim: Simulator, router: int) -> None:
    got = sim.state("special_received")
    got[..., router, :] = 0
    sim.set_state("special_received", got)


def ring_sizes(sim: Simulator, router: int = 0, hop: int = 6) -> tuple[int, ...]:
    """The number of nodes on each ring through `router`, found as software does before nodes
    are numbered: mark the router's own R_SW, then for k = 1, 2, ... load the router k hops away
    with the way back (R_SGET_RTRN, -k) and SGET its R_SW, until the mark comes back (k is the
    ring's size) or nothing does (no link: a ring of one); deltas reach 31, so a ring that
    has not answered by then has 32 nodes, the T3E's largest. `hop`: clocks a hop takes."""
    mark = 0x7E3D
    sizes = []
    for dim in range(3):
        sput(sim, router, [], "R_SW", mark)
        sim.step(2)
        size = 32
        for k in range(1, 32):
            there = [0, 0, 0]
            there[dim] = k
            back = [-d for d in there]
            sput(sim, router, there, "R_SGET_RTRN", deltas(back))
            sim.step(hop * k + 2)
            clear_received(sim, router)
            sget(sim, router, there, "R_SW")
            sim.step(2 * hop * k + 2)
            got = received(sim, router)
            if got is None:
                size = 1
                break
            if got == mark:
                size = k
                break
        sizes.append(size)
        sput(sim, router, [], "R_SW", 0)
        sim.step(2)
    return tuple(sizes)
