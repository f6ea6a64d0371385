"""The T3E router's arbitration (Scott & Thorson, section 7), read clock by clock from the t3e
family's state: which VCs contend for each output, who wins, and whether that follows the
paper's rules.

The kernel keeps no log of its arbitration (kernels/t3e/arbiter.hpp), so the record is
rebuilt here. A `_Record` steps a Simulator one clock at a time and compares the named state
arrays before (B) and after (A) each step:

* What the step saw at its start. Credits arriving this clock are in B's ``credit_belt`` row
  of slot t mod slots; a flit that left an input VC moved its ``ivc_head`` (at most one flit
  leaves an input or an output per clock); the flits that arrived follow from ``occupancy``.
  So the VCs holding flits and the output credits as the arbiter read them are exact, and so
  is which output VC sent (its credits fell).
* Step 1 (input VC selection) and the losses of the right to request depend on state alone
  and are replayed in full (`_selection`).
* Steps 2-4 need each selected head's route, which needs its routing tag: a flit that
  arrives into an empty buffer and leaves in the same clock is never in the buffer arrays. So
  every flit is followed from clock 0 (an empty network): a packet gets a number when its
  head leaves its PE's input, flits on a link arrive in the order they were sent (the fast
  path never overtakes: out_last), its source is where it was injected and its destination
  where it leaves to a PE, or what the buffer arrays show when a flit of it sits in one. The
  tag is then the source router's R_NET_LUT entry, and route.hpp's rules give the
  deterministic and adaptive requests. The clocks are judged `LAG` clocks late, once most of
  their packets are known; a router's clock whose selected heads are not all known is left
  out (counted as ``unknown``).
* Who won an output VC or a physical output is seen when a flit leaves. A grant that is
  given back in the same clock (an input that flowed on its other choice) is inferred from
  who flowed adaptive. The round-robin pointers (ovc_rr, out_rr) are not exposed: each is
  kept as the set of values it can have, and an outcome is checked against the winners those
  values allow; a check is decisive when only one winner was possible among two or more
  contenders.

Every router runs every clock (the t3e engine puts none to sleep; only sources sleep), and
the fast path (fall_through_straight) is only the delay Arbiter::send gives a flit that won its
output: nothing bypasses arbitration, so each step is one full arbitration at every router.

An adaptive VC granted to a head that then does not flow on it is given back within the clock
(Arbiter::flow): between clocks an adaptive VC is owned only by a started packet (counted:
``tracking: unstarted adaptive VC owned between clocks``, always 0). So a contest of an
unstarted adaptive VC cannot be read from the state before a step alone; it is judged on the
step's own grants, rebuilt as above.

What the state cannot tell: which asker an adaptive grant went to when it was given back in
the same clock (the pointer set then keeps every candidate), the pointers themselves until an
outcome pins them, and the outputs a barrier or special packet takes (``taken``). Limits: one
instance followed from clock 0, no barrier/special traffic, one packet type (admission to the
adaptive VC needs the packet's length), R_NET_LUT mode 0 tags without initial or final hops;
`record` refuses anything else.
"""

from __future__ import annotations

import functools
from collections import Counter, deque
from dataclasses import dataclass

import numpy as np

from ..config import Config
from ..fidelity.claim import Measured
from ..simulate import Simulator

PORTS, VCS, ADAPTIVE = 7, 5, 4
DIRECTIONS = 6  # +X +Y +Z -X -Y -Z; 6 stands for the PE
NO_ADAPT, DATELINE = 4, 1 << 32  # R_CHAN bit, R_VCSEL bit (register_bits.hpp)
SYNC = 50  # clocks judged before the window, only to learn the pointers
LAG = 200  # clocks between tracking a clock and judging it (its packets' destinations known)
# Flits per request and response (packet_types.hpp, Table 3).
LENGTHS = {"single_word_get": (2, 2), "vector_get": (2, 10), "single_word_put": (4, 2),
           "vector_put": (10, 2)}
STATE = ("occupancy", "ivc_head", "ivc_out_port", "ivc_out_vc", "credits", "ovc_owner",
         "ovc_requests", "ovc_started", "in_sel", "in_rr", "out_hold", "credit_belt",
         "flit_belt", "buffer_src", "buffer_dest", "buffer_meta")


def _first(mask: int, ptr: int) -> int:
    """round_robin.hpp's rr_first: the lowest set bit at or after ptr, else the lowest."""
    hi = mask >> ptr << ptr
    m = hi or mask
    return (m & -m).bit_length() - 1


# rr_first over the 5 VCs of an input, as a table [mask, pointer] (-1: no VC holds flits).
_RR5 = np.array([[_first(m, p) if m else -1 for p in range(VCS)] for m in range(1 << VCS)])


def saturated(radix=(4, 4, 4), **keys) -> Config:
    """A T3E under uniform traffic at its PEs' full rate (past the knee of its accepted
    load), one thread, R_NET_LUT mode 0; `keys` change any of it."""
    base = dict(pattern="uniform", offered=1.0, lut_mode="mode0", threads=1)
    return Config().with_(family="t3e", kind="torus", radix=list(radix), **(base | keys))


@dataclass
class _Clock:
    """One clock's reading, kept until its packets are known: lists [router][port][vc]."""

    t: int
    b_owner: list
    a_owner: list
    b_req: list
    b_started: list
    b_hold: list
    credits: list  # as the arbiter read them: B's plus the credit arriving this clock
    sent_out: list  # 1: a flit left on this output VC
    sent_in: list  # 1: a flit left this input VC
    b_out: list
    b_out_vc: list
    a_out: list
    a_out_vc: list
    sel: list  # [router][port] the VC with the right to request after step 1, -1 none
    fronts: dict[int, dict[int, int]]  # router: {port: the packet heading its selected VC}


class _Record:
    """A network stepped clock by clock, every flit followed (module docstring)."""

    def __init__(self, cfg: Config):
        d = cfg.to_dict()
        t3e = d["t3e"]
        if (t3e["packet_mix"] or t3e["barrier"] != "off" or t3e["adaptive_hops"] != "ignored"
                or t3e["lut_mode"] not in ("auto", "mode0")):
            raise ValueError("arbitration: allowed one packet type, t3e.barrier = \"off\", "
                             "t3e.adaptive_hops = \"ignored\" and t3e.lut_mode = \"mode0\"")
        self.sim = Simulator(cfg)
        if self.sim.instances != 1:
            raise ValueError("arbitration: allowed one instance")
        s = self.sim.state
        self.lengths = LENGTHS[t3e["packet_type"]]
        self.pwho = s("r_pwho").tolist()
        self.lwho = s("r_lwho").tolist()
        self.lut = s("r_net_lut")
        if self.lut.shape[1] < len(self.lwho):
            raise ValueError("arbitration: allowed R_NET_LUT mode 0 (an entry per PE)")
        self.chan = s("r_chan").tolist()
        self.vcsel = s("r_vcsel").tolist()
        self.peer = s("peer").tolist()
        orient = int(t3e["r_orient"])
        # direction_port (t3e_registers.cpp) and its inverse.
        self.port_of = [1 + 2 * (d % 3) + ((d < 3) == bool(orient >> (d % 3) & 1))
                        for d in range(DIRECTIONS)]
        self.dir_of = {p: d for d, p in enumerate(self.port_of)}
        self.R = len(self.pwho)
        self.slots = s("credit_belt").shape[1]
        n = self.R * PORTS
        self.queue: list[deque[int]] = [deque() for _ in range(n * VCS)]  # per input VC
        self.link: list[deque[int]] = [deque() for _ in range(n)]  # per network input
        self.cur = [-1] * (n * VCS)  # the packet whose head last left each input VC
        self.src: list[int] = []
        self.dest: list[int] = []
        self.cls: list[int] = []
        self.seen = Counter[str]()  # consistency counts of the tracking itself
        self.routes: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.prev = self._read()

    def _read(self) -> dict[str, np.ndarray]:
        return {k: self.sim.state(k) for k in STATE}

    def _packet(self, src: int, cls: int) -> int:
        self.src.append(src)
        self.dest.append(-1)
        self.cls.append(cls)
        return len(self.src) - 1

    def _learn(self, h: int, dest: int, what: str):
        if self.dest[h] < 0:
            self.dest[h] = dest
        elif self.dest[h] != dest:
            self.seen[f"{what} contradicts"] += 1

    def step(self, keep: bool) -> tuple[_Clock | None, dict[str, np.ndarray]]:
        """One clock: its reading if `keep` (lists are slow to build), and the step-1 replay
        (_selection's, with the credits as read, the VCs selected and A's in_sel / in_rr)."""
        B, t = self.prev, self.sim.cycle
        self.sim.step(1)
        A = self.prev = self._read()
        slot = t % self.slots
        arriving = B["credit_belt"][:, slot, :PORTS]
        credits = B["credits"].astype(np.int64) + (arriving[..., None] == np.arange(VCS))
        sent_out = credits - A["credits"]
        sent_in = A["ivc_head"] != B["ivc_head"]
        arrived = A["occupancy"].astype(np.int64) - B["occupancy"] + sent_in
        if (sent_out.min() < 0 or sent_out.max() > 1 or arrived.min() < 0 or arrived.max() > 1
                or (arrived.sum(-1) != B["flit_belt"][:, slot, :PORTS]).any()):
            raise RuntimeError(f"clock {t}: the state does not read as one flit a port")
        # An adaptive VC granted to a head that does not flow on it is given back in the same
        # clock (Arbiter::flow), so between clocks one is owned only by a started packet.
        self.seen["unstarted adaptive VC owned between clocks"] += int(
            ((A["ovc_owner"][..., ADAPTIVE] >= 0) & (A["ovc_started"][..., ADAPTIVE] == 0)).sum())
        holding = (B["occupancy"] + arrived) > 0
        sel, x = _selection(B, A, holding)
        # Arrivals first (a flit sent this clock arrives later), then departures.
        for r, p, v in np.argwhere(arrived):
            k = (r * PORTS + p) * VCS + v
            if p == 0:
                self.queue[k].append(-1)  # from the PE: a number when its head leaves
            elif self.link[r * PORTS + p]:
                self.queue[k].append(self.link[r * PORTS + p].popleft())
            else:
                raise RuntimeError(f"clock {t}: a flit from nowhere at router {r} port {p}")
        fronts: dict[int, dict[int, int]] = {}
        b_out = B["ivc_out_port"]
        for r, p in np.argwhere((sel >= 0)):
            v = int(sel[r, p])
            if b_out[r, p, v] >= 0:
                continue
            k = (r * PORTS + p) * VCS + v
            q = self.queue[k]
            if q[0] < 0:
                q[0] = self._packet(int(r), v // 2)  # PE VCs: 0, 1 requests, 2, 3 responses
            h = fronts.setdefault(int(r), {})[int(p)] = q[0]
            for X in (B, A):  # in a buffer before the clock, or left there after it
                if X["occupancy"][r, p, v] and (X is B or not sent_in[r, p, v]):
                    self._learn(h, int(X["buffer_dest"][r, p, v, 0]), "buffer")
                    if (int(X["buffer_src"][r, p, v, 0]) != self.src[h]
                            or int(X["buffer_meta"][r, p, v, 0]) >> 31 != self.cls[h]):
                        self.seen["buffer contradicts"] += 1
                    break
        for r, p, v in np.argwhere(sent_in):
            k = (r * PORTS + p) * VCS + v
            h = self.queue[k].popleft()
            if b_out[r, p, v] < 0:  # a head
                if h < 0:
                    h = self._packet(int(r), v // 2)
                self.cur[k] = h
                o, ov = A["ivc_out_port"][r, p, v], A["ivc_out_vc"][r, p, v]
            else:
                if h >= 0 and h != self.cur[k]:
                    self.seen["flit order contradicts"] += 1
                h = self.cur[k]
                o, ov = b_out[r, p, v], B["ivc_out_vc"][r, p, v]
            if sent_out[r, o, ov] != 1:
                self.seen["departure contradicts"] += 1
            if o == 0:
                self._learn(h, int(r), "ejection")
            else:
                far = self.peer[r][o]
                self.link[far].append(h)  # far = router * 7 + port, one instance
        x.update(credits=credits, sel=sel, in_sel=A["in_sel"], in_rr=A["in_rr"])
        if not keep:
            return None, x
        c = _Clock(t, B["ovc_owner"].tolist(), A["ovc_owner"].tolist(),
                   B["ovc_requests"].tolist(), B["ovc_started"].tolist(),
                   B["out_hold"].tolist(), credits.tolist(), sent_out.tolist(),
                   sent_in.astype(np.int8).tolist(), b_out.tolist(),
                   B["ivc_out_vc"].tolist(), A["ivc_out_port"].tolist(),
                   A["ivc_out_vc"].tolist(), sel.tolist(), fronts)
        return c, x

    def route(self, r: int, p: int, v: int, h: int) -> tuple[int, int, int]:
        """route.hpp's Router::route for the head of packet h at input (p, v) of router r:
        (deterministic port, its VC, adaptive port or -1)."""
        key = (r, p, v, self.src[h], self.dest[h], self.cls[h])
        if key not in self.routes:
            self.routes[key] = self._route(*key)
        return self.routes[key]

    def _route(self, r: int, p: int, v: int, src: int, dest: int, cls: int
               ) -> tuple[int, int, int]:
        tag = int(self.lut[src, self.lwho[dest]])
        if tag >> 18 & 3 != 3 or tag >> 20 & 1:
            raise ValueError("arbitration: allowed tags without initial or final hops")
        here = self.pwho[r]
        todo = 0
        for d in range(3):
            if (here >> (8 * d) & 255) != (tag >> (6 * d) & 31):
                todo |= 1 << (d + 3 * (tag >> (6 * d + 5) & 1))
        if not todo:
            return 0, 2 * cls, -1
        low, high = (todo & -todo).bit_length() - 1, todo.bit_length() - 1
        ad = -1
        if tag >> 21 & 1 and not self.chan[r][high] & NO_ADAPT \
                and self.peer[r][self.port_of[high]] >= 0:
            ad = self.port_of[high]
        came = self.dir_of.get(p, DIRECTIONS)
        continuing = v != ADAPTIVE and came < DIRECTIONS and (came + 3) % 6 == low
        sel = self.vcsel[r][low]
        if not continuing:
            vc_set = sel >> (tag >> (6 * (low % 3)) & 7) & 1
        elif not sel & DATELINE:
            vc_set = v & 1
        else:
            vc_set = 1  # a VC1 packet here would have stopped (a configuration error)
        return self.port_of[low], 2 * cls + vc_set, ad

    def known(self, h: int) -> bool:
        return self.dest[h] >= 0


def _selection(B, A, holding) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Step 1 replayed for every input [router, port] as arbiter.hpp's select() does it: the
    VC selected (-1 none), and what request(), flow() and send() decide its right to request
    by (whether it was a new selection, had bubbled, is on its way, sent, sent its tail, and
    which deterministic output VCs it owns after the clock); `_count_selection` judges."""
    mask = (holding * (1 << np.arange(VCS))).sum(-1)
    sel0, rr0 = B["in_sel"].astype(np.int64), B["in_rr"].astype(np.int64)
    ix = np.clip(sel0, 0, None)[..., None]
    bubbled = (sel0 >= 0) & ~np.take_along_axis(holding, ix, -1)[..., 0]  # empty: lose
    rr = np.where(bubbled, (sel0 + 1) % VCS, rr0)
    new = ((sel0 < 0) | bubbled) & (mask != 0)
    sel = np.where(new, _RR5[mask, rr], np.where(bubbled, -1, sel0))
    # Why the selected VC may lose the right before the clock ends.
    ix = np.clip(sel, 0, None)[..., None]

    def at(x):
        return np.take_along_axis(x, ix, -1)[..., 0]

    out, out_vc = at(B["ivc_out_port"]).astype(np.int64), at(B["ivc_out_vc"]).astype(np.int64)
    on_way = out >= 0
    sent = at(A["ivc_head"] != B["ivc_head"])
    tail = sent & on_way & (at(A["ivc_out_port"]) < 0)
    # The output VC a head owns after the clock (its deterministic one, if it won it).
    me = np.arange(PORTS)[None, :] * VCS + sel
    owns = A["ovc_owner"][:, None, :, :ADAPTIVE] == me[:, :, None, None]  # [r, p, o, v]
    return sel, {"mask": mask, "new": new, "bubbled": bubbled, "rr": rr, "out": out,
                 "out_vc": out_vc, "on_way": on_way, "sent": sent,
                 "tail": tail, "owns": owns}


class _Judge:
    """Steps 2-4 of one clock at each router, from a _Clock whose packets are known."""

    def __init__(self, rec: _Record, start: int):
        self.rec, self.start = rec, start
        self.n = Counter[str]()
        self.violations: list[str] = []  # the first few: what, where
        n = rec.R * PORTS
        everything35, everything5 = frozenset(range(PORTS * VCS)), frozenset(range(VCS))
        self.all35, self.all5 = everything35, everything5
        self.ad_ptr = [everything35] * n  # ovc_rr of each adaptive output VC: its possible values
        self.det_ptr = [everything35] * (n * VCS)  # ... of each deterministic one
        self.out_ptr = [everything5] * n  # out_rr of each physical output

    def bad(self, n: Counter, what: str, c: _Clock, r: int, port: int):
        """A rule broken (or the reading of it): counted, and the first few placed."""
        n[what] += 1
        if c.t >= self.start and len(self.violations) < 10:
            self.violations.append(f"{what}: clock {c.t}, router {r}, port {port}")

    def forget(self, r: int):
        n = r * PORTS
        for o in range(PORTS):
            self.ad_ptr[n + o] = self.all35
            self.out_ptr[n + o] = self.all5
            for v in range(VCS):
                self.det_ptr[(n + o) * VCS + v] = self.all35

    def clock(self, c: _Clock):
        for r in range(self.rec.R):
            if any(not self.rec.known(h) for h in c.fronts.get(r, {}).values()):
                self.forget(r)
                self.n["unknown"] += c.t >= self.start
                continue
            self.router(c, r)

    def router(self, c: _Clock, r: int):
        rec, count = self.rec, c.t >= self.start
        n = self.n if count else Counter[str]()
        credits, owner, sel = c.credits[r], c.b_owner[r], c.sel[r]
        # Step 2: each input's request: (port, VC) it asks for, adaptive port, head.
        req: dict[int, tuple[int, int, int]] = {}
        heads: dict[int, tuple[int, int, int]] = {}
        for p in range(PORTS):
            v = sel[p]
            if v < 0:
                continue
            if c.b_out[r][p][v] >= 0:
                o, ov = c.b_out[r][p][v], c.b_out_vc[r][p][v]
                if credits[o][ov]:
                    req[p] = (o, ov, -1)
                continue
            h = c.fronts[r][p]
            o, ov, a = rec.route(r, p, v, h)
            size = rec.lengths[rec.cls[h]]
            if a >= 0 and not (owner[a][ADAPTIVE] < 0 and credits[a][ADAPTIVE] >= size):
                a = -1
            req[p] = (o, ov, a)
            heads[p] = (o, ov, a)
        # Step 5 as seen: where each input's flit went; heads that flowed adaptive.
        flowed: dict[int, tuple[int, int]] = {}
        for p in range(PORTS):
            v = sel[p]
            if sum(c.sent_in[r][p]) != (v >= 0 and c.sent_in[r][p][v]):
                self.bad(n, "flit left an unselected VC", c, r, p)
            if v >= 0 and c.sent_in[r][p][v]:
                if p in heads:
                    flowed[p] = (c.a_out[r][p][v], c.a_out_vc[r][p][v])
                    o, ov, a = heads[p]
                    n["head flows checked"] += 1
                    if flowed[p] not in ((o, ov), (a, ADAPTIVE)):
                        self.bad(n, "head left where it did not ask", c, r, p)
                else:
                    flowed[p] = (c.b_out[r][p][v], c.b_out_vc[r][p][v])
        went_adaptive = {p for p, (o, ov) in flowed.items() if p in heads and ov == ADAPTIVE}
        asked = {q[0] for q in req.values()} | {q[2] for q in req.values() if q[2] >= 0}
        for o in sorted(asked):
            self.output(c, r, o, req, heads, flowed, went_adaptive, n)

    def output(self, c: _Clock, r: int, o: int, req, heads, flowed, went_adaptive, n):
        credits, owner, sel = c.credits[r], c.b_owner[r], c.sel[r]
        k = r * PORTS + o
        # Step 3, deterministic VCs: remembered requests and this clock's claims.
        owner3 = list(owner[o])
        for ov in range(ADAPTIVE):
            if owner[o][ov] >= 0:
                continue
            wanting = c.b_req[r][o][ov]
            for p, (ho, hv, _) in heads.items():
                if (ho, hv) == (o, ov):
                    wanting |= 1 << (p * VCS + sel[p])
            after = c.a_owner[r][o][ov]
            if not wanting:
                if after >= 0:
                    self.bad(n, "deterministic VC owned unasked", c, r, o)
                continue
            if after >= 0:
                got = {after}
            else:  # given back by a head that flowed adaptive: one of those that asked for it
                got = {p * VCS + sel[p] for p in went_adaptive if heads[p][:2] == (o, ov)}
                if not got:
                    self.bad(n, "deterministic grant unexplained", c, r, o)
                    self.forget(r)
                    return
            # Any of `got` contends alike in step 4 (each asks for this VC now).
            owner3[ov] = min(got)
            self.award(c, r, o, self.det_ptr, k * VCS + ov, wanting, got, req, n,
                       "deterministic")
        # Step 3, the adaptive VC: to one of the heads asking for it now.
        ad_asking = sum(1 << (p * VCS + sel[p]) for p, q in heads.items() if q[2] == o)
        ad_grantee = -1
        if owner[o][ADAPTIVE] < 0 and ad_asking:
            flew = {p * VCS + sel[p] for p in went_adaptive if flowed[p][0] == o}
            ad_grantee = min(flew) if flew else -2  # -2: granted and given back, to whom unseen
            self.award(c, r, o, self.ad_ptr, k, ad_asking, flew or None, req, n, "adaptive")
        elif owner[o][ADAPTIVE] >= 0:
            ad_grantee = owner[o][ADAPTIVE]
        # Step 4: the contenders and who won.
        contenders = 0
        for ov in range(VCS):
            w = ad_grantee if ov == ADAPTIVE else owner3[ov]
            if w == -2:
                contenders |= 1 << ov  # a head asking for it got it, with room and credits
                continue
            if w < 0 or not credits[o][ov]:
                continue
            q = req.get(w // VCS)
            if q is None or sel[w // VCS] != w % VCS:
                continue
            if (q[0], q[1]) == (o, ov) or (ov == ADAPTIVE and q[2] == o):
                contenders |= 1 << ov
        if not contenders:
            return
        sent = [ov for ov in range(VCS) if c.sent_out[r][o][ov]]
        if sent:
            won = set(sent)
            if not contenders >> sent[0] & 1:
                self.bad(n, "output sent by a VC not contending", c, r, o)
        else:  # the winner's input flowed on its adaptive choice elsewhere
            won = {ov for ov in range(ADAPTIVE) if contenders >> ov & 1 and owner3[ov] >= 0
                   and owner3[ov] // VCS in went_adaptive}
            if not won:
                self.bad(n, "output won and unused, unexplained", c, r, o)
                self.out_ptr[k] = self.all5
                return
        hold = c.b_hold[r][o]
        started = c.b_started[r][o][ADAPTIVE]
        det = contenders & (1 << ADAPTIVE) - 1
        ad = contenders >> ADAPTIVE & 1
        if hold >= 0 and contenders >> hold & 1:
            n["held outputs"] += 1
            n["held outputs kept"] += won == {hold}
            if hold == ADAPTIVE and det:
                n["started adaptive holding against deterministic"] += 1
                n["started adaptive holding kept"] += won == {ADAPTIVE}
            return
        # Paper: "the adaptive VC has lowest priority, unless it has a packet that has started".
        if ad and not det and not started:
            n["unstarted adaptive alone"] += 1
            n["unstarted adaptive alone won"] += ADAPTIVE in won
        if ad and det:
            key = "started" if started else "unstarted"
            n[f"{key} adaptive vs deterministic"] += 1
            n[f"{key} adaptive won"] += ADAPTIVE in won
            if not started and ADAPTIVE in won:
                self.bad(n, "adaptive priority violations", c, r, o)
        pool = (det if ad and det and not started else 0) or contenders
        allowed = {_first(pool, x) for x in self.out_ptr[k]}
        if len(allowed) == 1 and bin(pool).count("1") > 1:
            n["output round-robin decisive"] += 1
        if not won & allowed:
            self.bad(n, "output round-robin violations", c, r, o)
        self.out_ptr[k] = frozenset((w + 1) % VCS for w in (won & allowed or won))

    def award(self, c: _Clock, r: int, o: int, ptrs: list[frozenset[int]], i: int,
              wanting: int, got: set[int] | None, req: dict, n: Counter, kind: str):
        """Output VC i (of output o) granted round-robin among the input VCs `wanting`
        (bits); `got`: the grantees the outcome allows (None: any of them)."""
        sel = c.sel[r]
        allowed = {_first(wanting, x) for x in ptrs[i]}
        both = allowed if got is None else allowed & got
        if got is not None and len(got) == 1:
            (g,) = got
            n[f"{kind} grants seen"] += 1
            if len(allowed) == 1 and bin(wanting).count("1") > 1:
                n[f"{kind} grants decisive"] += 1
                n[f"{kind} grants decisive, not the lowest"] += g != _first(wanting, 0)
            if kind == "deterministic":
                p = g // VCS
                n["deterministic grants to a VC not requesting now"] += (
                    sel[p] != g % VCS or p not in req)
        if not both:
            self.bad(n, f"{kind} round-robin violations", c, r, o)
            both = got or allowed
        ptrs[i] = frozenset((w + 1) % (PORTS * VCS) for w in both)


@dataclass(frozen=True)
class Tally:
    """What a run saw: counts by name (see the measure functions), and its clocks."""

    n: dict[str, int]
    clocks: int
    routers: int
    violations: tuple[str, ...]  # rules broken: the first few, where


def record(cfg: Config, warmup: int, clocks: int) -> Tally:
    """Steps `cfg` for warmup + clocks clocks (+ LAG, so the last clocks' packets are known),
    judging the last `clocks`: counts of the selection (step 1) and arbitration (2-4) rules."""
    rec = _Record(cfg)
    judge = _Judge(rec, warmup)
    n = Counter[str]()
    pending: deque[_Clock] = deque()
    for t in range(warmup + clocks + LAG):
        # The judge starts SYNC clocks early, so that it knows most round-robin pointers.
        c, x = rec.step(warmup - SYNC <= t < warmup + clocks)
        if warmup <= t < warmup + clocks:
            _count_selection(t, x, n, judge.violations)
        if c is not None:
            pending.append(c)
        while pending and (pending[0].t + LAG <= t):
            judge.clock(pending.popleft())
    while pending:
        judge.clock(pending.popleft())
    n.update(judge.n)
    n.update({f"tracking: {k}": v for k, v in rec.seen.items()})
    return Tally(dict(n), clocks, rec.R, tuple(judge.violations))


def _count_selection(t: int, x: dict[str, np.ndarray], n: Counter, where: list[str]):
    """Step 1 and the right to request, every input of one clock: predicted against seen."""
    sel, credits = x["sel"], x["credits"]
    # Losses (arbiter.hpp): blocked (a packet on its way with no credit), completed (its tail
    # left), failed (a head that did not leave and holds no output VC with a credit).
    r_ix = np.arange(sel.shape[0])[:, None]
    blocked = x["on_way"] & (credits[r_ix, np.clip(x["out"], 0, None),
                                     np.clip(x["out_vc"], 0, None)] == 0)
    won_vc = (x["owns"] & (credits[:, None, :, :ADAPTIVE] > 0)).any(axis=(2, 3))
    failed = ~x["on_way"] & ~x["sent"] & ~won_vc
    chosen = sel >= 0
    lose = chosen & (blocked | x["tail"] | failed)
    want_sel = np.where(chosen & ~lose, sel, -1)
    want_rr = np.where(lose, (sel + 1) % VCS, x["rr"])
    got_sel, got_rr = x["in_sel"].astype(np.int64), x["in_rr"].astype(np.int64)
    # The VC a new selection chose: in_sel, or in_rr - 1 if it lost the right at once.
    chose = np.where(got_sel >= 0, got_sel, (got_rr - 1) % VCS)
    new = x["new"]
    n["selections"] += int(new.sum())
    n["selections among two or more"] += int((new & (np.bitwise_count(x["mask"]) > 1)).sum())
    n["selections skipping a lower VC"] += int((new & (sel != _RR5[x["mask"], 0])).sum())
    order = new & (chose != sel)
    right = ~((want_sel == got_sel) & (want_rr == got_rr)) & ~order
    n["selection order violations"] += int(order.sum())
    n["right checks"] += int(sel.size)
    n["right violations"] += int(right.sum())
    for what, bad in (("selection order violations", order), ("right violations", right)):
        for r, p in np.argwhere(bad)[:max(0, 10 - len(where))]:
            where.append(f"{what}: clock {t}, router {r}, port {p}")
    n["right kept while holding"] += int((chosen & ~lose & ~new).sum())
    for name, why in (("bubbled", x["bubbled"]), ("blocked", chosen & blocked),
                      ("completed", chosen & x["tail"]), ("failed to win", chosen & failed)):
        n[f"lost: {name}"] += int(why.sum())


# The runs the measures read: a saturated 4x4x4 (uniform, every PE at its full rate, the
# arbitration contended at every router). Quick: single-word Gets (2-flit packets); full: those
# and vector Gets too (10-flit responses: outputs held longer, output VCs blocked mid-packet).
RUNS = {True: (("single_word_get", 300),), False: (("single_word_get", 2000),
                                                   ("vector_get", 2000))}
WARMUP = 300
PACKETS = {"single_word_get": "single-word Gets", "vector_get": "vector Gets"}


@functools.lru_cache(maxsize=None)
def _tally(quick: bool) -> Tally:
    n: Counter[str] = Counter()
    where: list[str] = []
    routers = 0
    for packet_type, clocks in RUNS[quick]:
        t = record(saturated(packet_type=packet_type), warmup=WARMUP, clocks=clocks)
        n.update(t.n)
        where += t.violations
        routers = t.routers
    return Tally(dict(n), sum(c for _, c in RUNS[quick]), routers, tuple(where))


def _setting(quick: bool) -> str:
    kinds = " and ".join(PACKETS[k] for k, _ in RUNS[quick])
    return f"4x4x4 saturated, {kinds}, {_tally(quick).clocks} clocks"


def _n(t: Tally, *keys: str) -> list[int]:
    return [t.n.get(k, 0) for k in keys]


def adaptive_priority(quick: bool) -> Measured:
    """Outputs an unstarted adaptive VC took while a deterministic VC contended for them too
    (the hold of a started packet not deciding): the paper's "lowest priority" makes it 0."""
    t = _tally(quick)
    won, of, s_won, s_of, h_won, h_of, a_won, a_of, rr, dec = _n(
        t, "unstarted adaptive won", "unstarted adaptive vs deterministic",
        "started adaptive won", "started adaptive vs deterministic",
        "started adaptive holding kept", "started adaptive holding against deterministic",
        "unstarted adaptive alone won", "unstarted adaptive alone",
        "output round-robin violations", "output round-robin decisive")
    return Measured(float(won), (
        f"{_setting(quick)}: an unstarted adaptive VC won {won} of {of} outputs a "
        f"deterministic VC contended for too, and {a_won} of {a_of} where it contended alone; "
        f"a started one won {s_won} of {s_of} round-robin contests and kept an output it held "
        f"{h_won} of {h_of} times; round-robin among the VCs: {rr} violations "
        f"({dec} decisive outcomes)"))


def input_round_robin(quick: bool) -> Measured:
    """New input VC selections that were not the next VC holding flits after the one that
    last had the right (round-robin "among the VCs that contain packets"): the paper's 0."""
    t = _tally(quick)
    bad, of, many, skip = _n(t, "selection order violations", "selections",
                             "selections among two or more", "selections skipping a lower VC")
    return Measured(float(bad), (
        f"{_setting(quick)}: {bad} of {of} selections out of round-robin order; {many} chose "
        f"among two or more VCs holding flits, {skip} passed over a lower-numbered one (as "
        "fixed priority would not)"))


def input_keeps_right(quick: bool) -> Measured:
    """Input-clocks where the selected VC kept or lost its right to request otherwise than
    section 7's four events say (fails to win its output VC, bubbles, completes, blocked)."""
    t = _tally(quick)
    bad, of, kept = _n(t, "right violations", "right checks", "right kept while holding")
    lost = ", ".join(f"{k[6:]} {v}" for k, v in sorted(t.n.items()) if k.startswith("lost: "))
    return Measured(float(bad), (
        f"{_setting(quick)}: {bad} of {of} input-clocks; the right carried into the next "
        f"clock {kept} times; lost on {lost}"))


def adaptive_round_robin(quick: bool) -> Measured:
    """Grants of an adaptive output VC that round-robin among the heads asking for it (whose
    packets fit) could not have made, its pointer known as a set of values: the paper's 0."""
    t = _tally(quick)
    bad, seen, dec, not_low, unknown = _n(
        t, "adaptive round-robin violations", "adaptive grants seen", "adaptive grants decisive",
        "adaptive grants decisive, not the lowest", "unknown")
    return Measured(float(bad), (
        f"{_setting(quick)}: {bad} of {seen} adaptive VC grants seen were out of turn; {dec} "
        f"were decisive (one grantee possible among two or more askers), {not_low} of them not "
        f"the lowest-numbered asker; router-clocks left out, a packet unknown: {unknown}"))


def remembered_requests(quick: bool) -> Measured:
    """Deterministic output VC grants to an input VC that was not requesting in that clock (its
    earlier request remembered, section 7): the paper says they happen (more than 0)."""
    t = _tally(quick)
    remembered, seen, bad, dec = _n(
        t, "deterministic grants to a VC not requesting now", "deterministic grants seen",
        "deterministic round-robin violations", "deterministic grants decisive")
    return Measured(float(remembered), (
        f"{_setting(quick)}: {remembered} of {seen} deterministic VC grants went to an input "
        f"VC not requesting then; round-robin over the remembered requests: {bad} violations "
        f"({dec} decisive)"))


def broken_rules(quick: bool) -> tuple[str, ...]:
    """Where any rule (or the record's reading of the state) failed: the first few."""
    return _tally(quick).violations
