"""Reading a METRO network's state arrays (router.family = "metro") as words on wires.

Every wire of a METRO network is a belt of slots at its receiving end: `belt` [elem, slot,
port] (elements are the routers, then the endpoints) holds the word that arrives there in the
clock whose number modulo `slots` (dp + vtd + 1) is the slot, and `belt_tag` the clock its
stream began. A receiver empties its slot as it reads it, so the words arriving in clock t are
read after clock t - 1 has run (`sim.cycle == t`) and before clock t runs. `Tracer` does that
clock by clock and keeps every word it sees, decoded (kernels/metro/metro_state.hpp):

    from lockstep.metro import Tracer
    sim = ls.Simulator(cfg)
    tr = Tracer(sim).step(30)      # runs clocks 0 .. 29, reading each one's arrivals first
    tr.table                       # one row per word: cycle, wire, kind, value, text ...
    tr.wide()                      # clock by clock, one column per wire direction

Names: router r is "R<r>", its forward ports "f<k>" and backward ports "b<k>" (backward port k
of a stage of dilation d is the (k % d)-th of logical direction k // d); endpoint n is "E<n>",
its wires into the network "in<k>" and out of it "out<k>". A word's text is the paper's name
(HEADER, DATA, DATA-IDLE, TURN, DROP, STATUS, CHECKSUM, ACK) and its value; a trailing "*"
marks the start word of a connection (the word the next router sets up on). Stages count from
0, as the STATUS words do; a fast-reclamation DROP carries the blocked stage + 1 and reads
"DROP blocked@<stage>".

`words(sim, cycles)` is `Tracer(sim).step(cycles).table`. `path(sim, node)` follows endpoint
`node`'s current connection through the crossbars (`conn`), and `connections(sim)` lists every
router's forward ports that are not free. `streams(sim, cycles)` follows every attempt by its
start word and TURN, one row each (the routers it reached and when, where it arrived).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from ..simulate import Simulator

KINDS = {0: "", 1: "HEADER", 2: "DATA", 3: "DATA-IDLE", 4: "TURN", 5: "DROP", 6: "STATUS",
         7: "CHECKSUM", 8: "ACK"}
START_BIT = 1 << 4
NO_PORT = 0xFF
PORT_MODES = {0: "free", 1: "setup", 2: "open", 3: "blocked", 4: "discard"}
FLOWS = {0: "forward", 1: "reverse"}
SOURCE_MODES = {0: "idle", 1: "sending", 2: "waiting", 3: "backoff"}
TABLE_COLUMNS = ["cycle", "sent", "src", "src_port", "dst", "dst_port", "wire", "word", "kind",
                 "value", "start", "text", "tag"]


def kind(word: int) -> str:
    """The kind of a word as the paper names it ("" for an empty slot)."""
    k = int(word) & 15
    if k not in KINDS:
        raise ValueError(f"word {int(word):#x}: kind {k}, allowed 0 to 8")
    return KINDS[k]


def decode(word: int) -> tuple[str, int, bool]:
    """(kind, value, start) of a word: bits 0-3 the kind, bit 4 the start, 5.. the value."""
    word = int(word)
    return kind(word), word >> 5, bool(word & START_BIT)


def status(value: int) -> tuple[int, bool, int, int]:
    """(layer, blocked, router, backward port) of a STATUS word's value: the router names
    itself and the port its connection left by (kernels/metro/metro_state.hpp, Status)."""
    return value & 7, bool(value & 8), value >> 10, (value >> 4) & 63


def describe(word: int, width: int | None = None) -> str:
    """A word as text: "HEADER 3*", "DATA 0x5a", "STATUS s1 blocked", "DROP blocked@1",
    "ACK good" ... ("" for an empty slot). DATA and CHECKSUM values are in hex, padded to
    ``width`` bits when given."""
    name, value, start = decode(word)
    if not name:
        return ""
    digits = max(1, -(-width // 4)) if width else 1
    if name == "HEADER":
        text = f"HEADER {value}"
    elif name in ("DATA", "CHECKSUM"):
        text = f"{name} 0x{value:0{digits}x}"
    elif name == "STATUS":
        layer, blocked, _, _ = status(value)
        text = f"STATUS s{layer}" + (" blocked" if blocked else "")
    elif name == "DROP":
        text = f"DROP blocked@{value - 1}" if value else "DROP"
    elif name == "ACK":
        text = "ACK good" if value & 1 else "ACK bad"  # above the bit: the destination's checksum
    else:
        text = name
    return text + ("*" if start else "")


class Network:
    """The static facts of one simulated METRO network that naming words needs: each router's
    layer, ports, wires (from the derived views `peer` and `port_node`), belt slots and wire
    delays, read from a Simulator of one instance (or instance ``instance`` of a batch)."""

    def __init__(self, sim: Simulator, instance: int = 0):
        cfg = sim.configs[instance if len(sim.configs) > 1 else 0]
        if cfg.get("router.family") != "metro":
            raise ValueError(f"router.family = {cfg.get('router.family')!r}: the METRO trace "
                             "reads only router.family = \"metro\"")
        self.instance = instance
        self.many = sim.instances > 1
        self.peer = self.read(sim, "peer")
        self.port_node = self.read(sim, "port_node")
        self.routers, self.ports = self.peer.shape
        radix = list(cfg.get("topology.radix"))
        dilation = list(cfg.get("topology.dilation")) or [1] * len(radix)
        self.radix, self.dilation = radix, dilation
        self.endpoints = int(np.prod(radix))
        self.eports = int(cfg.get("topology.endpoint_ports"))
        # Each router's layer (a multibutterfly's stage; a fat tree's up layers, then its down
        # layers) and forward ports, as the engine built them.
        self.stage = self.read(sim, "stage").astype(int)
        self.forward = self.read(sim, "forward_ports").astype(int)
        self.dp, self.vtd = int(cfg.get("metro.dp")), int(cfg.get("metro.vtd"))
        self.width = int(cfg.get("metro.width"))
        self.slots = int(self.read(sim, "belt").shape[1])  # dp + the longest vtd + 1
        self.wire_delay = self.read(sim, "wire_delay")  # [element, column]
        # Endpoint n's leaving wire k comes from the k-th backward port leading to it (in
        # router, port order, as the builder deals them); its entering wire k's router port is
        # learnt from the words the endpoint sends (`Tracer`).
        self.exit: dict[tuple[int, int], tuple[int, int]] = {}
        self.entry: dict[tuple[int, int], tuple[int, int]] = {}
        for n in range(self.endpoints):
            back = [(r, q) for r, q in zip(*np.nonzero(self.port_node == n))
                    if q >= self.forward[r]]
            for k, (r, q) in enumerate(sorted(back)):
                self.exit[(n, k)] = (int(r), int(q))

    def read(self, sim: Simulator, name: str) -> np.ndarray:
        a = sim.state(name)
        return a[self.instance] if self.many else a

    def router_port(self, r: int, q: int) -> str:
        f = int(self.forward[r])
        return f"f{q}" if q < f else f"b{q - f}"

    def element(self, x: int) -> str:
        return f"R{x}" if x < self.routers else f"E{x - self.routers}"

    def port(self, x: int, q: int) -> str:
        if x < self.routers:
            return self.router_port(x, q)
        return f"in{q}" if q < self.eports else f"out{q - self.eports}"

    def sender(self, x: int, q: int) -> tuple[int, int] | None:
        """(element, port) whose words arrive at element x's port q; None if not known."""
        if x < self.routers:
            far = int(self.peer[x, q])
            if far >= 0:
                return far // self.ports, far % self.ports
            n = int(self.port_node[x, q])
            if n < 0:
                return None
            if q >= self.forward[x]:  # a backward port: the endpoint's leaving wire
                k = next(k for k in range(self.eports) if self.exit[(n, k)] == (x, q))
                return self.routers + n, self.eports + k
            k = next((k for (m, k), rq in self.entry.items() if m == n and rq == (x, q)), None)
            return None if k is None else (self.routers + n, k)
        n = x - self.routers
        rq = self.exit.get((n, q - self.eports)) if q >= self.eports else self.entry.get((n, q))
        return rq

    def delay(self, x: int, q: int) -> int:
        """Clocks on the wire out of element x's column q: dp + vtd from a router (the wire's
        own vtd under metro.port_vtd), 1 from an endpoint."""
        return int(self.wire_delay[x, q])


class Tracer:
    """Steps a METRO Simulator clock by clock and records every word that arrives on every
    wire (see the module's docstring). `table` is the record, one row per word."""

    def __init__(self, sim: Simulator, instance: int = 0):
        self.sim = sim
        self.net = Network(sim, instance)
        self.rows: list[dict] = []
        self.cycles: list[int] = []
        self.sources: list[np.ndarray] = []  # src_mode after each clock
        self.learn_entries()

    def learn_entries(self) -> None:
        """An endpoint whose source holds a connection (a trace begun mid-attempt) uses the
        one forward port from it that is set up, open or blocked: that is its attempt's
        entering wire."""
        net = self.net
        src_mode, src_port = net.read(self.sim, "src_mode"), net.read(self.sim, "src_port")
        mode = net.read(self.sim, "port_mode")
        for n in range(net.endpoints):
            if src_mode[n] not in (1, 2):
                continue
            held = [(int(r), int(q)) for r, q in zip(*np.nonzero(net.port_node == n))
                    if q < net.forward[r] and mode[r, q] in (1, 2, 3)]
            if len(held) == 1:
                net.entry[(n, int(src_port[n]))] = held[0]

    def step(self, n: int = 1) -> "Tracer":
        """Runs n clocks, reading the words each one receives before it runs."""
        if n < 0:
            raise ValueError(f"n = {n}: allowed 0 or more clocks")
        for _ in range(n):
            self.read_arrivals()
            self.sim.step(1)
            self.sources.append(self.net.read(self.sim, "src_mode").copy())
        return self

    def read_arrivals(self) -> None:
        net, t = self.net, self.sim.cycle
        s = t % net.slots
        belt = net.read(self.sim, "belt")[:, s, :]
        tags = net.read(self.sim, "belt_tag")[:, s, :]
        src_port = net.read(self.sim, "src_port")
        # Words from an endpoint into a router: the endpoint sent them last clock on its
        # current attempt's entering port, which names that wire.
        for x, q in zip(*np.nonzero(belt)):
            x, q = int(x), int(q)
            if x < net.routers and q < net.forward[x] and net.port_node[x, q] >= 0:
                node = int(net.port_node[x, q])
                net.entry[(node, int(src_port[node]))] = (x, q)
        for x, q in zip(*np.nonzero(belt)):
            x, q = int(x), int(q)
            word = int(belt[x, q])
            frm = net.sender(x, q)
            name, value, start = decode(word)
            src = net.element(frm[0]) if frm else "?"
            src_port_name = net.port(*frm) if frm else "?"
            dst, dst_port = net.element(x), net.port(x, q)
            self.rows.append({
                "cycle": t, "sent": t - net.delay(*frm) if frm else None,
                "src": src, "src_port": src_port_name, "dst": dst, "dst_port": dst_port,
                "wire": f"{src}.{src_port_name}→{dst}.{dst_port}", "word": word, "kind": name,
                "value": value, "start": start, "text": describe(word, net.width),
                "tag": int(tags[x, q]),
            })
        self.cycles.append(t)

    @property
    def table(self) -> pd.DataFrame:
        """Every word seen: cycle (the clock it arrives and is read), sent (the clock it was
        sent), src/src_port and dst/dst_port (the wire's two ends), wire (their names
        joined), word (raw), kind, value, start, text, tag (the clock its stream began)."""
        return pd.DataFrame(self.rows, columns=TABLE_COLUMNS)

    def wide(self, sources: bool = True, wires: list[str] | None = None) -> pd.DataFrame:
        """Clock by clock (every clock traced, empty ones too): one column per wire direction
        in the order words first used them (or ``wires``), each cell the word arriving there
        ("" none); with ``sources`` a column per endpoint whose source sent a word, its mode
        after the clock (idle, sending, waiting, backoff)."""
        df = self.table
        order = list(dict.fromkeys(df["wire"])) if wires is None else list(wires)
        out = pd.DataFrame("", index=pd.Index(self.cycles, name="cycle"), columns=order)
        for row in df.itertuples():
            if row.wire in out.columns:
                out.loc[row.cycle, row.wire] = row.text
        if sources:
            sent = df.src.str.startswith("E") & df.src_port.str.startswith("in")
            senders = sorted({int(s[1:]) for s in df.loc[sent, "src"]})
            modes = np.array(self.sources) if self.sources else np.zeros((0, 0), int)
            for n in senders:
                out[f"E{n} source"] = [SOURCE_MODES[int(m)] for m in modes[:, n]]
        return out


def words(sim: Simulator, cycles: int, instance: int = 0) -> pd.DataFrame:
    """The words arriving in the next ``cycles`` clocks of ``sim`` (which it runs), one row
    each: `Tracer(sim).step(cycles).table`."""
    return Tracer(sim, instance).step(cycles).table


def connections(sim: Simulator, instance: int = 0) -> pd.DataFrame:
    """Every router forward port not free: router, stage, forward port, backward port it is
    connected to (<NA> while blocked or discarding), mode (setup, open, blocked, discard),
    flow (forward, reverse), reply words owed, checksum so far."""
    net = Network(sim, instance)
    conn, mode = net.read(sim, "conn"), net.read(sim, "port_mode")
    flow, reply, check = (net.read(sim, k) for k in ("flow", "reply", "checksum"))
    rows = []
    for r in range(net.routers):
        for f in range(int(net.forward[r])):
            if mode[r, f] == 0:
                continue
            b = int(conn[r, f])
            rows.append({
                "router": r, "stage": int(net.stage[r]), "forward": f,
                "backward": pd.NA if b == NO_PORT else b - int(net.forward[r]),
                "mode": PORT_MODES[int(mode[r, f])], "flow": FLOWS[int(flow[r, f])],
                "reply": int(reply[r, f]) & 0x7F, "checksum": int(check[r, f]),
            })
    return pd.DataFrame(rows, columns=["router", "stage", "forward", "backward", "mode", "flow",
                                       "reply", "checksum"])


def path(sim: Simulator, node: int, instance: int = 0) -> pd.DataFrame:
    """Endpoint ``node``'s current connection, hop by hop through the crossbars (`conn`):
    one row per router it holds, with stage, router, forward port (f), backward port (b, <NA>
    where the path ends in a router: blocked, or still being set up) and mode; `attrs["dest"]`
    is the endpoint its last hop leads to (None if it does not reach one yet). Empty when the
    endpoint holds no connection."""
    net = Network(sim, instance)
    conn, mode = net.read(sim, "conn"), net.read(sim, "port_mode")
    if not 0 <= node < net.endpoints:
        raise ValueError(f"node {node}: allowed an endpoint, 0 to {net.endpoints - 1}")
    # The source uses one entering port at a time: its wire is the forward port from this
    # endpoint that holds a connection (or is blocked holding one, in detailed mode).
    held = [(int(r), int(q)) for r, q in zip(*np.nonzero(net.port_node == node))
            if q < net.forward[r] and mode[r, q] in (1, 2, 3)]
    rows, dest = [], None
    here = held[0] if held else None
    while here is not None:
        r, f = here
        b = int(conn[r, f])
        rows.append({"stage": int(net.stage[r]), "router": r, "f": f,
                     "b": pd.NA if b == NO_PORT else b - int(net.forward[r]),
                     "mode": PORT_MODES[int(mode[r, f])]})
        here = None
        if b != NO_PORT and mode[r, f] in (1, 2):
            far = int(net.peer[r, b])
            if far >= 0:
                nr, nf = far // net.ports, far % net.ports
                if mode[nr, nf] in (1, 2, 3):
                    here = (nr, nf)
            else:
                dest = int(net.port_node[r, b])
    out = pd.DataFrame(rows, columns=["stage", "router", "f", "b", "mode"])
    out.attrs["dest"] = dest
    return out


STREAM_COLUMNS = ["source", "tag", "routers", "ports", "clocks", "dest", "arrived", "turns",
                  "blocked_by", "drop", "followed"]


def streams(sim: Simulator, cycles: int, until: Callable[[Simulator], bool] | None = None,
            instance: int = 0) -> pd.DataFrame:
    """Every stream (attempt) that begins in the next ``cycles`` clocks of ``sim`` (which it runs;
    ``until(sim)``, checked every 64 clocks, ends them sooner), followed hop by hop by its start
    word, one row each: source, tag (the clock it began), routers and forward ports it reached in
    order, with the clocks its start word arrived (an attempt blocked in fast or detailed
    reclamation ends at the router that blocked it), dest and arrived (the endpoint its start word
    reached and when; <NA> if none) and turns (the clocks its TURN arrived at each of those
    routers, then at the endpoint); what came back to the source: blocked_by (the router a STATUS
    saying blocked names: detailed reclamation) and drop (the first DROP's value: the blocked
    stage + 1 in fast reclamation, 0 a plain drop); and followed: a word names its stream only by
    tag, so two streams of one tag through one router are not followed beyond it (followed False:
    the rest of the row is incomplete; what came back is kept, named by source and tag)."""
    net = Network(sim, instance)
    R, P, E = net.routers, net.ports, net.eports
    prev = np.where(net.peer >= 0, net.peer // P, -1)  # the router before each forward port
    before_exit = {(m + R, E + k): r for (m, k), (r, _) in net.exit.items()}
    rows: dict[tuple[int, int], dict] = {}
    at: dict[tuple[int, int], tuple[int, int] | None] = {}  # (tag, router): its stream
    lost: set[tuple[int, int]] = set()
    for c in range(cycles):
        if until is not None and c % 64 == 0 and until(sim):
            break
        t = sim.cycle
        belt = net.read(sim, "belt")[:, t % net.slots, :]
        tags = net.read(sim, "belt_tag")[:, t % net.slots, :]
        for x, q in zip(*np.nonzero(belt)):
            x, q, word = int(x), int(q), int(belt[x, q])
            k = KINDS.get(word & 15)
            start, turn, tag = bool(word & START_BIT), k == "TURN", int(tags[x, q])
            back = rows.get((x - R, tag)) if x >= R and q < E else None  # to the source
            if back is not None and k == "STATUS" and status(word >> 5)[1]:
                back["blocked_by"] = status(word >> 5)[2]
            elif back is not None and k == "DROP" and pd.isna(back["drop"]):
                back["drop"] = word >> 5
            if not (start or turn) or (x < R and q >= net.forward[x]) or (x >= R and q < E):
                continue  # only words going forward: into forward ports and leaving columns
            here = x if x < R else before_exit[(x, q)]
            if turn:  # a TURN follows its stream's start word
                key: tuple[int, int] | None = at.get((tag, here))
            elif x < R and net.port_node[x, q] >= 0:  # a start word from the source's endpoint
                key = (int(net.port_node[x, q]), tag)
                rows[key] = {"source": key[0], "tag": tag, "routers": [], "ports": [],
                             "clocks": [], "dest": pd.NA, "arrived": pd.NA, "turns": [],
                             "blocked_by": pd.NA, "drop": pd.NA}
            else:
                key = at.get((tag, int(prev[x, q]) if x < R else here))
            if start and x < R:  # a stream this router cannot tell from another is dropped
                seen = at.get((tag, x), key)
                if key is None or seen != key:
                    lost.update(k for k in (seen, key) if k is not None)
                at[(tag, x)] = key if seen == key else None
            if key is None or key in lost:
                continue
            row = rows[key]
            if turn:
                row["turns"].append(t)
            elif x < R:
                row["routers"].append(x)
                row["ports"].append(q)
                row["clocks"].append(t)
            else:
                row["dest"], row["arrived"] = x - R, t
        sim.step(1)
    out = pd.DataFrame([{**r, "followed": k not in lost} for k, r in rows.items()],
                       columns=STREAM_COLUMNS)
    for col in ("routers", "ports", "clocks", "turns"):
        out[col] = out[col].map(tuple)
    return out
