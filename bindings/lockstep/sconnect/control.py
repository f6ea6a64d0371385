"""In-band control of S-Connect routers (section 3.4): a controlling computer attached to one
node sends control messages that the TICs interpret, and reads their replies.

"All functions of the TIC are controlled through special control messages that are interpreted
by the TIC. Control messages can be sent to a TIC through any channel" and "forwarding of
control packets over a specific channel ... is used to bootstrap the system without a valid
routing table. Essentially, this allows source directed routing to map the network topology."

A control message is routed by its source: its route is a list of channel numbers, the channel
to leave each router by (up to 15 hops), and the router at its end performs the operation and
sends the reply back the way the request came (kernels/sconnect/control.hpp). The controller
writes requests into its host's queue (the state arrays `control_requests`,
`control_request_head`, `control_request_count`) and reads the replies from its inbox
(`control_replies`, `control_reply_count`)::

    ctl = ls.sconnect.Controller(sim, node=0)
    ctl.identify([1, 3])              # the router two hops away over channels 1 then 3
    ctl.read_register([2], "timer")
    links = ctl.map_topology()        # every channel, found from node 0 alone
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..simulate import Simulator

OPS = {"identify": 0, "read_table": 1, "write_table": 2, "read_register": 3,
       "write_register": 4}
OP_NAMES = {v: k for k, v in OPS.items()}
REGISTERS = {"timer": 0, "perf_count": 1, "perf_select": 2, "channels": 3}
ERRORS = 16  # register ERRORS + p: corrupted arrivals on channel p (read only)
STATUS = {0: "ok", 1: "no channel", 2: "bad request"}
QUEUE, REQUEST_WORDS, REPLY_WORDS, MAX_ROUTE = 64, 5, 8, 15
VC_BIT = 1 << 31


def _route_words(route: Sequence[int]) -> tuple[int, int]:
    words = [0, 0]
    for k, port in enumerate(route):
        words[k // 8] |= int(port) << (4 * (k % 8))
    return words[0], words[1]


def _route_of(lo: int, hi: int, length: int) -> list[int]:
    return [((lo if k < 8 else hi) >> (4 * (k % 8))) & 15 for k in range(length)]


class Controller:
    """The controlling computer at node `node` (instance `instance` of a batch) of an S-Connect
    Simulator. `send` queues a request; `collect` steps the Simulator until every request sent
    has its reply and returns them; the other methods are one request each, answered at once."""

    def __init__(self, sim: Simulator, node: int = 0, instance: int = 0):
        cfg = sim.configs[instance if len(sim.configs) > 1 else 0]
        if cfg.get("router.family") != "sconnect":
            raise ValueError(f"router.family = {cfg.get('router.family')!r}: control messages "
                             "are S-Connect's; allowed only router.family = \"sconnect\"")
        nodes = sim.state("control_request_count").shape[-1]
        if not 0 <= node < nodes:
            raise ValueError(f"node {node}: allowed 0 to {nodes - 1}")
        self.sim, self.node, self.instance = sim, node, instance
        self.ports = int(sim.state("peer").shape[-1])
        self.outstanding: dict[int, dict] = {}
        self.next_tag = 0

    def _array(self, name: str) -> np.ndarray:
        a = self.sim.state(name)
        return a[self.instance] if self.sim.instances > 1 else a

    def _write(self, name: str, here: np.ndarray) -> None:
        if self.sim.instances > 1:
            whole = self.sim.state(name)
            whole[self.instance] = here
            here = whole
        self.sim.set_state(name, here)

    def send(self, op: str, route: Sequence[int] = (), arg: int = 0, value: int = 0) -> int:
        """Queues one request; returns its tag. `route`: the channel to leave each router by,
        from the controller's own router; [] is an operation on that router."""
        if op not in OPS:
            raise ValueError(f"op {op!r}: allowed {', '.join(OPS)}")
        route = [int(p) for p in route]
        if len(route) > MAX_ROUTE or any(not 1 <= p < self.ports for p in route):
            raise ValueError(f"route {route}: allowed up to {MAX_ROUTE} channels, each 1 to "
                             f"{self.ports - 1}")
        if not 0 <= arg < 1 << 16 or not 0 <= value < 1 << 32:
            raise ValueError(f"arg {arg}, value {value}: allowed arg below 2^16, value below 2^32")
        count, head = self._array("control_request_count"), self._array("control_request_head")
        if count[self.node] == QUEUE:
            raise RuntimeError(f"node {self.node}'s control queue is full ({QUEUE} requests): "
                               "collect() the replies first")
        requests = self._array("control_requests")
        tag = self.next_tag
        self.next_tag = (self.next_tag + 1) % (1 << 32)
        lo, hi = _route_words(route)
        slot = (int(head[self.node]) + int(count[self.node])) % QUEUE
        requests[self.node, slot] = [OPS[op] | len(route) << 8 | arg << 16, value, lo, hi, tag]
        count[self.node] += 1
        self._write("control_requests", requests)
        self._write("control_request_count", count)
        self.outstanding[tag] = {"op": op, "route": route, "arg": arg}
        return tag

    def collect(self, max_cycles: int = 10_000) -> pd.DataFrame:
        """Steps the Simulator until every request sent has its reply (at most `max_cycles`
        cycles: then RuntimeError) and returns the replies, one row each in the order they
        arrived: tag, op, route (as sent), arg, status, value, back (the channels the reply
        left each router by, the target's first), sent and answered (cycles), and the time
        stamps: sent_timer (the controller's TIC's 16-bit timer as the request left) and
        target_timer (the target's as it performed the operation)."""
        rows: list[dict] = []
        for _ in range(max_cycles + 1):
            count = self._array("control_reply_count")
            if count[self.node]:
                replies = self._array("control_replies")[self.node, :count[self.node]]
                for w in replies.astype(np.int64):
                    tag = int(w[4])
                    asked = self.outstanding.pop(tag)
                    length = len(asked["route"])
                    hops = _route_of(int(w[2]), int(w[3]), length)
                    rows.append({"tag": tag, **asked, "status": STATUS[(int(w[0]) >> 13) & 3],
                                 "value": int(w[1]), "back": hops[::-1], "sent": int(w[5]),
                                 "answered": int(w[6]), "sent_timer": int(w[7]) & 0xFFFF,
                                 "target_timer": int(w[7]) >> 16})
                count[self.node] = 0
                self._write("control_reply_count", count)
            if not self.outstanding:
                return pd.DataFrame(rows, columns=["tag", "op", "route", "arg", "status", "value",
                                                   "back", "sent", "answered", "sent_timer",
                                                   "target_timer"])
            self.sim.step(1)
        raise RuntimeError(f"{len(self.outstanding)} control requests unanswered after "
                           f"{max_cycles} cycles (a route into a dead end, or a full pool)")

    def call(self, op: str, route: Sequence[int] = (), arg: int = 0, value: int = 0) -> dict:
        """One request, answered: its reply as a dict (see `collect`)."""
        if self.outstanding:
            raise RuntimeError("collect() the outstanding requests first")
        self.send(op, route, arg, value)
        return self.collect().iloc[0].to_dict()

    def identify(self, route: Sequence[int] = ()) -> dict:
        """The router at the end of `route`: router, ports, host (whether it serves a host),
        and the channel the request came in on (`in_port`; None for the controller's own)."""
        r = self.call("identify", route)
        if r["status"] != "ok":
            return {"status": r["status"]}
        v = r["value"]
        return {"status": "ok", "router": v & 0xFFFFF, "ports": (v >> 20) & 15,
                "host": bool(v >> 24 & 1), "in_port": r["back"][0] if route else None}

    def timer_offset(self, route: Sequence[int]) -> int:
        """How far the timer of the TIC at the end of `route` is ahead of the controller's own
        (mod 2^16, as a signed number): from one time-stamped control packet, its target's stamp
        less the sender's less the one-way time, half the round trip (the route is the same
        both ways). The paper: the times "can also be used to time stamp control packets to
        compare the timer of two adjacent nodes", and S3.mp adjusts them to a global time."""
        r = self.call("identify", route)
        if r["status"] != "ok":
            raise RuntimeError(f"control identify over route {list(route)}: {r['status']}")
        d = (r["target_timer"] - r["sent_timer"] - (r["answered"] - r["sent"]) // 2) % (1 << 16)
        return d - (1 << 16) if d >= 1 << 15 else d

    def read_table(self, route: Sequence[int], dest: int) -> tuple[int, int]:
        """(permissible channels mask, VC) of the routing table entry for node `dest`."""
        v = self._checked(self.call("read_table", route, dest))
        return v & ~VC_BIT, v >> 31

    def write_table(self, route: Sequence[int], dest: int, ports: int, vc: int) -> None:
        self._checked(self.call("write_table", route, dest, int(ports) | int(vc) << 31))

    def read_register(self, route: Sequence[int], name: str | int) -> int:
        """A register: "timer", "perf_count", "perf_select", "channels", or ERRORS + channel."""
        return self._checked(self.call("read_register", route, self._register(name)))

    def write_register(self, route: Sequence[int], name: str | int, value: int) -> int:
        """Writes a register (the timer: adds `value`, as the TIC's does); returns it after."""
        return self._checked(self.call("write_register", route, self._register(name), value))

    @staticmethod
    def _register(name: str | int) -> int:
        if isinstance(name, str):
            if name not in REGISTERS:
                raise ValueError(f"register {name!r}: allowed {', '.join(REGISTERS)} or "
                                 f"{ERRORS} + a channel")
            return REGISTERS[name]
        return int(name)

    @staticmethod
    def _checked(reply: dict) -> int:
        if reply["status"] != "ok":
            raise RuntimeError(f"control {reply['op']} over route {reply['route']}: "
                               f"{reply['status']}")
        return int(reply["value"])

    def many(self, requests: Sequence[tuple]) -> pd.DataFrame:
        """Sends (op, route, arg, value) requests, as many at a time as the controller's queue
        holds, and returns all their replies (see `collect`)."""
        out = []
        for k in range(0, len(requests), QUEUE):
            for req in requests[k:k + QUEUE]:
                self.send(*req)
            out.append(self.collect())
        return pd.concat(out, ignore_index=True) if out else self.collect()

    def map_topology(self) -> pd.DataFrame:
        """Maps the network from the controller's router alone, by source routes (the paper's
        bootstrap): asks every channel of every router found so far who is at its far end, a
        wave at a time. One row per wired channel: router, port, neighbour, neighbour_port, and
        `route`, the route from the controller's router to `router`."""
        me = self.identify([])
        routes: dict[int, list[int]] = {me["router"]: []}
        ports = {me["router"]: me["ports"]}
        links: list[dict] = []
        frontier = [me["router"]]
        while frontier:
            at = {tuple(routes[r]): r for r in frontier}
            replies = self.many([("identify", routes[r] + [p]) for r in frontier
                                 for p in range(1, ports[r]) if len(routes[r]) < MAX_ROUTE])
            frontier = []
            for rep in replies[replies.status == "ok"].itertuples():
                n = rep.value & 0xFFFFF
                links.append({"router": at[tuple(rep.route[:-1])], "port": rep.route[-1],
                              "neighbour": n, "neighbour_port": rep.back[0]})
                if n not in routes:
                    routes[n] = list(rep.route)
                    ports[n] = (rep.value >> 20) & 15
                    frontier.append(n)
        df = pd.DataFrame(links).sort_values(["router", "port"], ignore_index=True)
        df["route"] = [routes[r] for r in df.router]
        return df

    def load_tables(self, port_mask: np.ndarray, vc: np.ndarray,
                    routes: dict[int, list[int]]) -> int:
        """Writes every router's routing table entries (port_mask, vc: [routers, nodes]) by
        control messages over `routes` (router: its route from the controller's router);
        returns the cycles it took."""
        start = self.sim.cycle
        replies = self.many([("write_table", route, dest,
                              int(port_mask[r, dest]) | int(vc[r, dest]) << 31)
                             for r, route in routes.items() for dest in range(port_mask.shape[1])])
        bad = replies[replies.status != "ok"]
        if len(bad):
            raise RuntimeError(f"{len(bad)} control writes failed, the first over route "
                               f"{bad.route.iloc[0]}: {bad.status.iloc[0]}")
        return self.sim.cycle - start
