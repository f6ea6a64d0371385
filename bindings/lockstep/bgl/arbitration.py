"""Blue Gene/L's three arbitration phases (document 001, "Torus network") checked grant by grant:
a per-grant record built in Python from the state before and after every cycle of a loaded
torus, and the paper's arbitration rules counted on it (docs/fidelity_backlog.md had them
waiting for such a record).

How the record is built. A Simulator steps one cycle at a time and the arrays the arbiters read
or write are copied after each step, so cycle t has its state as it began (`b`) and as it ended
(`a`). Within a cycle (kernels/bgl/router_cycle.hpp) a router takes in heads and token-acks
from its belts, frees tokens as bytes leave its FIFOs (drain), delivers and injects, then runs
phase 1 for every FIFO head, phase 2 per receiver, and phase 3 sender by sender (reception pops
first). Of what phase 1 reads, only `tokens` (the token-acks arriving) and `drain_left` (chunks
leaving) change before it, and the record adds both back exactly (as view.py's
tokens_at_arbitration and leaving_at_arbitration); link, path and bus timers, the FIFO heads and
their `ready_at` words are as the cycle began. So phase 1 is mirrored exactly for every head:
which (direction, VC) pairs it could ask for and their two-bit token ranges. Grants come from
what changed: a sender started something when its `link_free` moved; a data packet when the far
end's belt slot of this cycle filled (the packet record there carries the downstream VC it
took), else a token-ack (its token belt slot carries what it returns); a FIFO's head left when
its ring index moved, and each started packet is matched to that head by (src, seq, dest); a
head that left with no start went to reception. Routers sleep between events (`wake`): a router
runs cycle t only if t >= wake or something arrived on its belts. Every reading is checked
against the model's own consequences, counted as "broken" (0 on every run so far, and a
measure's detail says so when not): a sleeping router changed nothing and its mirrored phase 1
had no request; an awake router with a request granted something (a free sender with a request
always grants one); every grant is one of phase 1's pairs for its head; every start matches one
head; every token-ack was due by the record's reading of link.hpp's rule.

What the state cannot tell. Phase 1's requests are not stored, only their grants: a request
that lost phase 2 or 3 leaves no trace, and a tie broken at random shows only through the pair
granted (phase 3 may favour one request over another, so the share is the draw's only roughly).
"One request per receiver" is therefore checked as at most one packet leaving a receiver a
cycle, with a contrast showing the rule binding (another head's request could have gone to a
sender that stayed idle); a model presenting two requests of which only one could ever win would
pass unseen. Which request a receiver or FIFO presented is certain only where one head could ask
and JSQ's best pairs lie in one direction (the acks-first contrast). "A token-ack due" is
link.hpp's rule (acknowledgements owed, or freed tokens of a VC whose packet has wholly left or
a full packet's worth): the paper says the senders give token-acks priority "if any", not when
the hardware makes one. Phase 2's SLQ and random cycles and phase 3's in-network priority are
draws the state does not keep; they are not measured here.

The runs: configs/bgl_8x8x8.toml's router (two dynamic VCs of 1 KB, the bubble escape VC, the
high-priority VC, JSQ by two-bit ranges, two paths), uniform 256-byte packets at 0.9 of the
uniform bound, a quarter of them high priority (so that phase 2's priority rule and the
high-priority injection FIFOs are exercised), one thread. With 1 KB dynamic VCs the escape VC is
all but unused under uniform load (the senders favour packets in the network, so VCs seldom
fill): the escape rule is measured on a second run with 256-byte dynamic VCs (one full packet,
bgl.vc_bytes' least), where it is taken on about one hop in ten. Quick: 4x4x4, 4,000 cycles of
warm-up and 3,000 recorded (about 12 s a run on an idle core); full: 8x8x8, 10,000 and 3,000
(about a minute a run). Two switches the model has show the record is not blind: random phase 1
(bgl.jsq = false) gives 88 "JSQ" breaches in 1,275 dynamic hops, and in-network priority on half
the cycles (bgl.in_network_fraction = 0.5) 122 injection packets over a network request.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .. import bgl
from ..fidelity.claim import Measured
from ..simulate import Simulator
from .view import DEST, FULL_CHUNKS, META, READY_AT, SEQ, SRC

LOAD = 0.9  # of the uniform bound: links busy, injection FIFOs backed up
PRIORITY = 0.25  # packets sent high priority

# Every array the record reads.
NAMES = ("vc_fifo", "vc_head", "vc_count", "drain_left", "drain_next", "tokens", "tokens_owed",
         "token_belt", "token_belt_valid", "belt", "belt_valid", "link_free", "path_free",
         "reception_free", "reception_busy", "injection_fifo", "injection_head",
         "injection_count", "rx_count", "rx_tail", "rx_acked", "wake")
# The runs: the hardware's VCs, and dynamic VCs of one full packet (escape_only_when_no_dynamic).
CASES: dict[str, dict] = {"hardware": {}, "small": {"bgl.vc_bytes": 256}}
LOWEST = np.array([(h & -h).bit_length() - 1 if h else 0 for h in range(64)])  # first direction


def _setup(quick: bool) -> tuple[list[int], int, int]:
    """Radix, warm-up cycles and recorded cycles."""
    return ([4, 4, 4], 4000, 3000) if quick else ([8, 8, 8], 10000, 3000)


def _size(quick: bool) -> str:
    return "x".join(map(str, _setup(quick)[0]))


@dataclass
class Record:
    """Counts over every grant of the recorded cycles (keys in `_cycle`), and the injection
    FIFO x direction matrix of packets that left."""

    n: Counter = field(default_factory=Counter)
    fifo_dirs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int64))
    cycles: int = 0


class _Static:
    """What every cycle's reading needs of the configuration and the wiring."""

    def __init__(self, cfg, sim: Simulator):
        self.dynamic = cfg.get("bgl.dynamic_vcs")
        # The measured router only: the mirror of phase 1 below is written for it.
        assert cfg.get("bgl.escape_vcs") == "bubble" and cfg.get("bgl.escape_order") == "dimension"
        assert cfg.get("bgl.jsq") and cfg.get("bgl.jsq_tokens") == "range"
        assert not cfg.get("bgl.arbitration_gap") and not cfg.get("bgl.retransmission_packets")
        assert cfg.get("traffic.pattern") == "uniform" and not cfg.get("bgl.deterministic")
        self.vc_cap = cfg.get("bgl.vc_bytes") // 32
        self.ack_extra = cfg.get("bgl.ack_bytes") - 1  # a token-ack's belt slot: delay + this
        routers, dirs, vcs = sim.state("vc_head").shape
        fifos = sim.state("injection_head").shape[1]
        self.R, self.D, self.V, self.F = routers, dirs, vcs, fifos
        self.escape, self.hp_vc = self.dynamic, vcs - 1  # the bubble escape VC, then the HP VC
        self.ring = sim.state("vc_fifo").shape[3]
        self.fifo_ring = sim.state("injection_fifo").shape[2]
        self.slots = sim.state("belt").shape[1]
        peer = sim.state("peer")[:, 1:]  # [router, dir]: far router * ports + far port
        ports = sim.state("peer").shape[1]
        self.far_r, self.far_d = peer // ports, peer % ports - 1
        self.delay = sim.state("link_delay")[:, 1:].astype(int)
        # Each FIFO as a unit: receiver d's VC w is d * V + w, injection FIFO f is D * V + f.
        self.U = dirs * vcs + fifos
        self.came = np.r_[np.repeat(np.arange(dirs), vcs), np.full(fifos, dirs)]
        self.on_vc = np.r_[np.tile(np.arange(vcs), dirs), np.zeros(fifos, int)]
        self.is_vc = np.arange(self.U) < dirs * vcs
        self.rows = np.arange(routers)[:, None]


def _config(quick: bool, case: str):
    radix, warm, rec = _setup(quick)
    return bgl.midplane(radix, **{
        "traffic.offered": LOAD * bgl.uniform_bound(radix), "bgl.priority_fraction": PRIORITY,
        "run.threads": 1, "run.warmup": warm, "run.measure": rec, "run.drain": 0} | CASES[case])


def record(quick: bool, case: str = "hardware") -> Record:
    """The counts of run `case` (cached: the claims below share two runs)."""
    return _record(quick, case)  # one cache key however it is called


@lru_cache(maxsize=None)
def _record(quick: bool, case: str) -> Record:
    cfg = _config(quick, case)
    _, warm, cycles = _setup(quick)
    sim = Simulator(cfg).step(warm)
    st = _Static(cfg, sim)
    rec = Record(fifo_dirs=np.zeros((st.F, st.D), np.int64), cycles=cycles)
    before = {k: sim.state(k) for k in NAMES}
    for _ in range(cycles):
        t = sim.cycle
        sim.step(1)
        after = {k: sim.state(k) for k in NAMES}
        _cycle(st, t, before, after, rec)
        before = after
    return rec


def _cycle(st: _Static, t: int, b: dict, a: dict, rec: Record) -> None:
    """Cycle t's grants, from the state as it began (b) and ended (a), into rec's counts."""
    n = rec.n
    R, D, V, F, dyn = st.R, st.D, st.V, st.F, st.dynamic
    now = t % st.slots
    rows = st.rows
    awake = (b["wake"] <= t) | b["belt_valid"][:, now].any(1) | b["token_belt_valid"][:, now].any(1)

    # Phase 1's view: tokens with this cycle's token-acks, links free, heads ready.
    tok = b["tokens"].astype(int) + np.where(b["token_belt_valid"][:, now, :, None] != 0,
                                             b["token_belt"][:, now, :, :V], 0)
    lfree = b["link_free"] <= t  # [R, D]
    left = b["drain_left"].astype(int) - ((b["drain_left"] > 0) & (b["drain_next"] == t))
    head = np.take_along_axis(b["vc_fifo"], b["vc_head"][..., None, None].astype(int),
                              axis=3)[:, :, :, 0]  # [R, D, V, words]
    ihead = np.take_along_axis(b["injection_fifo"], b["injection_head"][..., None, None]
                               .astype(int), axis=2)[:, :, 0]  # [R, F, words]
    rec_u = np.concatenate([head.reshape(R, D * V, -1), ihead], axis=1).astype(np.int64)
    ready = np.concatenate([((b["vc_count"] > 0) & (left == 0)).reshape(R, D * V),
                            b["injection_count"] > 0], axis=1) & (rec_u[..., READY_AT] <= t)
    meta = rec_u[..., META]
    hints, hp = meta >> 7 & 63, (meta >> 14 & 1).astype(bool)
    adaptive = ~hp & ~(meta >> 13 & 1).astype(bool)
    paths_free = (b["path_free"] <= t).sum(2)  # [R, D]
    path = np.concatenate([np.repeat(paths_free > 0, V, axis=1), np.ones((R, F), bool)], 1)
    # A reception bus is free at phase 1 if idle as the cycle began or emptied by reception
    # before phase 1 (view.py, _bus_free).
    busy_b, busy_a = b["reception_busy"] != 0, a["reception_busy"] != 0
    bus = ~busy_b | ((b["reception_free"] <= t) & ~(busy_a & (a["reception_free"] <= t)))
    bus_u = np.concatenate([np.take_along_axis(np.repeat(bus, V, axis=1),
                                               hp[:, :D * V, None].astype(int), 2)[..., 0],
                            np.zeros((R, F), bool)], axis=1)
    to_recep = ready & (hints == 0) & bus_u & st.is_vc
    net = ready & (hints != 0) & path
    # Dynamic pairs (jsq_request.hpp): a permitted direction, link free, a full packet's tokens.
    hint_d = (hints[..., None] >> np.arange(D) & 1).astype(bool)  # [R, U, D]
    dyn_avail = ((net & adaptive)[..., None, None] & hint_d[..., None]
                 & lfree[:, None, :, None] & (tok[:, None, :, :dyn] >= FULL_CHUNKS))
    score = np.minimum(4 * tok[:, :, :dyn] // st.vc_cap, 3)  # [R, D, dyn]: the two-bit range
    any_dyn = dyn_avail.any((2, 3))
    best = np.where(dyn_avail, score[:, None], -1).max((2, 3))  # [R, U]
    top = dyn_avail & (score[:, None] == best[..., None, None])  # JSQ's candidates
    # The escape pair: first direction in dimension order; the bubble escape VC (the HP VC for
    # a high-priority packet); two full packets' tokens to enter, one to stay on it going on.
    e_dir = LOWEST[hints]
    e_vc = np.where(hp, st.hp_vc, st.escape)
    entering = ~(st.is_vc & (st.on_vc == e_vc) & (e_dir == (st.came ^ 1)))
    need = np.where(entering, 2 * FULL_CHUNKS, FULL_CHUNKS)
    esc_req = net & ~any_dyn & (tok[rows, e_dir, e_vc] >= need) & lfree[rows, e_dir]
    requests = to_recep | any_dyn | esc_req
    # The senders each unit's request may go to: JSQ's best pairs', or the escape direction.
    target = np.where(any_dyn[..., None], top.any(3), esc_req[..., None]
                      & (e_dir[..., None] == np.arange(D)))  # [R, U, D]

    # What happened: senders that started (link_free moved), data packets among them (the far
    # belt slot of this cycle filled), FIFO heads that left (ring index moved).
    started = a["link_free"] != b["link_free"]
    slot = (now + st.delay) % st.slots
    far = (st.far_r, slot, st.far_d)
    pkt_new = (a["belt_valid"][far] != 0) & (b["belt_valid"][far] == 0)  # [R, D]
    pkt = a["belt"][far].astype(np.int64)  # [R, D, words]
    pops_vc = (a["vc_head"].astype(int) - b["vc_head"]) % st.ring  # [R, D, V]
    pops_inj = (a["injection_head"].astype(int) - b["injection_head"]) % st.fifo_ring
    popped = np.concatenate([pops_vc.reshape(R, D * V), pops_inj], axis=1) > 0

    # The record's own integrity: sleeping routers do and could do nothing; an awake router
    # with a request grants something (every free sender with a request grants one).
    changed = started.any(1) | popped.any(1)
    n["broken: sleeping router changed"] += int((changed & ~awake).sum())
    n["broken: sleeping router could request"] += int((requests.any(1) & ~awake).sum())
    n["broken: awake router requested, nothing granted"] += int(
        (requests.any(1) & awake & ~changed).sum())
    n["broken: packet without a start"] += int((pkt_new & ~started).sum())

    # Each data packet started, matched to the head it was: (src, seq, dest).
    rs, ss = np.nonzero(pkt_new)
    same = (popped[rs] & (rec_u[rs, :, SRC] == pkt[rs, ss, SRC, None])
            & (rec_u[rs, :, SEQ] == pkt[rs, ss, SEQ, None])
            & (rec_u[rs, :, DEST] == pkt[rs, ss, DEST, None]))
    n["broken: start not matched to one head"] += int((same.sum(1) != 1).sum())
    us = same.argmax(1)
    vs = pkt[rs, ss, META] >> 4 & 7  # the downstream VC it took
    taker = np.full((R, st.U), -1)  # which sender took each popped head (-1: reception)
    taker[rs, us] = ss
    recep = popped & (taker < 0)
    n["broken: popped to reception with hint bits"] += int((recep & (hints != 0)).sum())
    n["grants"] += len(rs) + int(recep.sum())

    on_dyn = vs < dyn
    in_mirror = np.where(on_dyn, dyn_avail[rs, us, ss, np.minimum(vs, dyn - 1)],
                         (vs == e_vc[rs, us]) & (ss == e_dir[rs, us]) & esc_req[rs, us])
    n["broken: grant outside phase 1's pairs"] += int((~in_mirror).sum())

    # Phase 1, escape: an adaptive packet takes the escape VC only if no dynamic pair is
    # available (link free and a full packet's tokens).
    ad = adaptive[rs, us]
    esc = ad & (vs == st.escape)
    n["escape hops"] += int(esc.sum())
    n["escape entries"] += int((esc & entering[rs, us]).sum())
    n["escape hops with a dynamic pair available"] += int((esc & any_dyn[rs, us]).sum())
    room_busy = (hint_d[rs, us, :, None] & (tok[rs, :, :dyn] >= FULL_CHUNKS)
                 & ~lfree[rs, :, None]).any((1, 2))
    n["escape hops, dynamic room on a busy link"] += int((esc & room_busy).sum())
    n["dynamic hops"] += int((ad & on_dyn).sum())

    # Phase 1, JSQ: the dynamic pair taken has the best two-bit range of those available.
    jsq = ad & on_dyn
    ks = np.nonzero(jsq)[0]
    chosen = score[rs[ks], ss[ks], vs[ks]]
    n["jsq grants"] += len(ks)
    n["jsq below the best range"] += int((chosen < best[rs[ks], us[ks]]).sum())
    av = dyn_avail[rs[ks], us[ks]]  # [k, D, dyn]
    sc = np.where(av, score[rs[ks]], -1).reshape(len(ks), D * dyn)
    n["jsq with ranges differing"] += int(((sc.max(1) > np.where(sc < 0, 9, sc).min(1))).sum())
    ties = top[rs[ks], us[ks]].reshape(len(ks), D * dyn)
    two = ties.sum(1) == 2
    n["jsq two-way ties"] += int(two.sum())
    n["jsq two-way ties, first pair won"] += int(
        (two & (ties.argmax(1) == ss[ks] * dyn + vs[ks])).sum())
    n["jsq ties"] += int((ties.sum(1) >= 2).sum())

    # Phase 2: at most one packet leaves a receiver a cycle; a high-priority head that can
    # request wins.
    per_rx = pops_vc.sum(2)  # [R, D]
    n["receiver grants"] += int((per_rx > 0).sum())
    n["receiver cycles with two leaving"] += int((per_rx > 1).sum())
    req_vc = requests[:, :D * V].reshape(R, D, V)
    idle = lfree & ~started
    # Another head could have gone: to a free reception bus, or (one of JSQ's best pairs) to a
    # sender that stayed idle, with a path left for it.
    to_idle = (target & idle[:, None, :]).any(2)
    for r, d in zip(*np.nonzero(per_rx == 1)):
        w = int(pops_vc[r, d].argmax())
        u = d * V + w
        went_net = taker[r, u] >= 0
        others = [d * V + x for x in range(V) if x != w and req_vc[r, d, x]]
        n["receiver grants, another head requesting"] += bool(others)
        paths_left = paths_free[r, d] - (1 if went_net else 0)
        if any((to_recep[r, o] and went_net) or (to_idle[r, o] and net[r, o] and paths_left > 0)
               for o in others):
            n["receiver grants, another head could have gone"] += 1
        if req_vc[r, d, st.hp_vc]:
            n["receiver grants, HP head requesting"] += 1
            n["receiver grants, HP head requesting, lost"] += w != st.hp_vc
            n["receiver grants, HP head won against another"] += (
                w == st.hp_vc and bool(others))

    # Phase 3, acks first: no data packet starts on a sender with a token-ack due (link.hpp,
    # token_ack_due, on the state when that sender's turn came: after the drain, with the
    # receiver's VCs popped by reception or by senders before it).
    acks = (a["rx_count"].astype(np.int64) - (t < a["rx_tail"]) - a["rx_acked"])[rs, ss]
    owed = a["tokens_owed"][rs, ss].astype(int)  # [k, V]
    by = taker[rs, :D * V].reshape(len(rs), D, V)[np.arange(len(rs)), ss]  # [k, V]
    leaving = np.where(by > ss[:, None], 0, a["drain_left"][rs, ss])
    due = (acks > 0) | ((owed > 0) & ((leaving == 0) | (owed >= FULL_CHUNKS))).any(1)
    n["data starts"] += len(rs)
    n["data starts with a token-ack due"] += int(due.sum())
    n["data starts with tokens owed, not due"] += int((~due & (owed > 0).any(1)).sum())
    ack_start = started & ~pkt_new
    n["token-acks"] += int(ack_start.sum())
    # Each token-ack was due by the same reading, with what it carries as what was owed.
    ar, as_ = np.nonzero(ack_start)
    aslot = (now + st.delay[ar, as_] + st.ack_extra) % st.slots
    carried = a["token_belt"][st.far_r[ar, as_], aslot, st.far_d[ar, as_]].astype(int)
    by = taker[ar, :D * V].reshape(len(ar), D, V)[np.arange(len(ar)), as_]
    leaving = np.where(by > as_[:, None], 0, a["drain_left"][ar, as_])
    owed = carried[:, :V]
    due = (carried[:, V] > 0) | ((owed > 0) & ((leaving == 0) | (owed >= FULL_CHUNKS))).any(1)
    n["broken: token-ack not due"] += int((~due).sum())
    # A request certainly presented to sender s: an injection FIFO, or a receiver with one
    # head requesting, whose best pairs all lie in direction s.
    one_way = requests & ~to_recep & (target.sum(2) == 1)
    sole = np.concatenate([np.repeat(req_vc.sum(2) == 1, V, axis=1), np.ones((R, F), bool)], 1)
    certain = (target & (one_way & sole)[..., None]).any(1)  # [R, D]
    possible = (target & requests[..., None]).any(1)
    n["token-acks with a data request possible"] += int((ack_start & possible).sum())
    n["token-acks with a data request certain"] += int((ack_start & certain).sum())

    # Phase 3, packets in the network first (bgl.in_network_fraction 1: every cycle), unless
    # the only high-priority packet requesting is an injection FIFO's: no injection packet
    # starts on a sender a receiver certainly presented a request to, unless it is high
    # priority and that request is not.
    net_sure = one_way & sole & st.is_vc
    net_cert = (target & net_sure[..., None]).any(1)  # [R, D]
    net_cert_hp = (target & (net_sure & hp)[..., None]).any(1)
    inj_cert = (target & (one_way & ~st.is_vc)[..., None]).any(1)
    from_inj = us >= D * V
    hp_inj = from_inj & hp[rs, us]
    n["injection starts"] += int(from_inj.sum())
    n["injection starts over a network request"] += int(
        ((from_inj & ~hp_inj & net_cert[rs, ss]) | (hp_inj & net_cert_hp[rs, ss])).sum())
    n["HP injection starts over a normal network request"] += int(
        (hp_inj & net_cert[rs, ss] & ~net_cert_hp[rs, ss]).sum())
    n["network starts over an injection request"] += int((~from_inj & inj_cert[rs, ss]).sum())

    # Any FIFO, any direction.
    np.add.at(rec.fifo_dirs, (us[from_inj] - D * V, ss[from_inj]), 1)


def _broken(r: Record) -> str:
    bad = {k: v for k, v in r.n.items() if k.startswith("broken") and v}
    return f"; RECORD BROKEN: {bad}" if bad else ""


def escape_only_when_no_dynamic(quick: bool) -> Measured:
    """Escape-VC hops of adaptive packets taken while a dynamic pair of a permitted direction
    was available (its link free, tokens for a full packet), on 256-byte dynamic VCs."""
    r, hw = record(quick, "small"), record(quick)
    n = r.n
    return Measured(n["escape hops with a dynamic pair available"], (
        f"{_size(quick)}, 256 B dynamic VCs, {r.cycles:,} cycles: {n['escape hops']:,} escape "
        f"hops of adaptive packets ({n['escape entries']:,} entering it), "
        f"{n['dynamic hops']:,} dynamic hops; {n['escape hops, dynamic room on a busy link']:,} "
        f"escape hops had a dynamic VC with tokens on a busy link (not available: 'link and "
        f"token availability'); the 1 KB VCs' run: {hw.n['escape hops']:,} escape hops"
        + _broken(r)))


def jsq_most_tokens(quick: bool) -> Measured:
    """Dynamic hops that took a pair of lower two-bit token range than the best available."""
    r = record(quick)
    n = r.n
    return Measured(n["jsq below the best range"], (
        f"{_size(quick)}, {r.cycles:,} cycles: {n['jsq grants']:,} dynamic hops, "
        f"{n['jsq with ranges differing']:,} of them with the available pairs' ranges "
        f"differing, {n['jsq ties']:,} with the best range tied" + _broken(r)))


def jsq_ties_random(quick: bool) -> Measured:
    """Of dynamic hops with two pairs tied at the best range, the share that took the first of
    the two (direction x+ first, then VC): a fixed order would give 0 or 1."""
    r = record(quick)
    n = r.n
    ties = n["jsq two-way ties"]
    return Measured(n["jsq two-way ties, first pair won"] / max(ties, 1), (
        f"{_size(quick)}: {n['jsq two-way ties, first pair won']:,} of {ties:,} two-way ties "
        f"({n['jsq ties']:,} ties in all, of {n['jsq grants']:,} dynamic hops)" + _broken(r)))


def one_request_per_receiver(quick: bool) -> Measured:
    """Receiver-cycles in which more than one packet left a receiver's FIFOs."""
    r = record(quick)
    n = r.n
    return Measured(n["receiver cycles with two leaving"], (
        f"{_size(quick)}, {r.cycles:,} cycles: {n['receiver grants']:,} receiver-cycles with a "
        f"packet leaving, {n['receiver grants, another head requesting']:,} with another head "
        f"able to request, {n['receiver grants, another head could have gone']:,} where its "
        f"request could have gone to a sender that stayed idle (or its reception bus) on a free "
        f"path" + _broken(r)))


def high_priority_wins(quick: bool) -> Measured:
    """Receiver-cycles in which a normal packet left while the receiver's high-priority head
    could request."""
    r = record(quick)
    n = r.n
    return Measured(n["receiver grants, HP head requesting, lost"], (
        f"{_size(quick)}, {PRIORITY:.0%} high priority: "
        f"{n['receiver grants, HP head requesting']:,} receiver-cycles with a packet leaving "
        f"and the high-priority head able to request, "
        f"{n['receiver grants, HP head won against another']:,} of them with another head able "
        f"to request too" + _broken(r)))


def acks_first(quick: bool) -> Measured:
    """Data packets started by a sender that had a token-ack due."""
    r = record(quick)
    n = r.n
    return Measured(n["data starts with a token-ack due"], (
        f"{_size(quick)}, {r.cycles:,} cycles: {n['data starts']:,} data packets started, "
        f"{n['token-acks']:,} token-acks, {n['token-acks with a data request certain']:,} of "
        f"them while a data request was certainly presented to that sender "
        f"({n['token-acks with a data request possible']:,} possibly); "
        f"{n['data starts with tokens owed, not due']:,} data starts while freed tokens waited "
        f"for their packet to leave (not due by link.hpp's rule)" + _broken(r)))


def network_first(quick: bool) -> Measured:
    """Injection packets started by a sender to which a receiver certainly presented a request,
    but for a high-priority one over a normal request (bgl.in_network_fraction = 1: every
    cycle favours the network)."""
    r = record(quick)
    n = r.n
    return Measured(n["injection starts over a network request"], (
        f"{_size(quick)}, {r.cycles:,} cycles: {n['injection starts']:,} injection starts; "
        f"{n['network starts over an injection request']:,} in-network starts while an "
        f"injection FIFO's request certainly waited for the same sender; "
        f"{n['HP injection starts over a normal network request']:,} high-priority injection "
        f"starts over a normal network request (the paper's exception)" + _broken(r)))


def any_fifo_any_direction(quick: bool) -> Measured:
    """(Injection FIFO, direction) pairs that carried no packet out."""
    r = record(quick)
    m = r.fifo_dirs
    return Measured(int((m == 0).sum()), (
        f"{_size(quick)}, {r.cycles:,} cycles: {int(m.sum()):,} packets left {m.shape[0]} "
        f"injection FIFOs ({m.shape[0] - 2} normal, 2 high priority) in {m.shape[1]} "
        f"directions; fewest on a pair {int(m.min())} (a high-priority FIFO's packets go in "
        f"dimension order, x first), most {int(m.max())}" + _broken(r)))
