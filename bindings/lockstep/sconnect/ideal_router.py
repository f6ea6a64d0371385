"""The ideal router of S-Connect's Figure 1 (Nowatzyk et al., ISCA 1995, section 2): an n x n
order-preserving router, uniform random destinations, latency against offered load, for an
input-buffered crossbar and a shared buffer pool, with fixed-length messages or lengths drawn
from a negative exponential distribution of mean 1 (or, for the text's "bimodal distributions",
short messages with a few long ones among them). Host-side and apart from the engine.

    from lockstep.sconnect import ideal_router as ir
    ir.simulate("crossbar", "fixed", [0.2, 0.4, 0.6])  # DataFrame: offered, accepted, latency
    ir.saturation("crossbar", "fixed")                  # 0.618 for n = 8 (Karol et al. 1987)
    ir.saturation("pool", "exponential", **ir.figure1("pool"))   # the paper's router: 0.64

Time is in mean message lengths, load is messages per input per unit time (the fraction of an
output's capacity), latency runs from a message's arrival to the end of its transmission, so
it is 1 at zero load. Each input keeps its messages in a FIFO; a message leaves the FIFO for a
buffer where it contends for its output, and an output sends its buffered messages oldest
first (ties at random). So the order of messages between one input and one output is kept.

- crossbar: one buffer per input, its FIFO's head (head-of-line blocking).
- pool: `buffers` shared by all inputs, filled oldest head first; None means unlimited, i.e.
  output queueing.
- release: when a message gives its buffer back. "end": as its last bit leaves (it is cut
  through from the buffer to the output; the textbook input-queued crossbar). "start": as it
  begins to leave, moved in zero time to the output's one-message transmitter, so that the
  input's next message may contend at once, even for another output in the same slot: the
  paper's "input- and output-buffered crossbar with zero buffer transfer times".

Figure 1 as read here (`figure1`): one buffer per channel, released at the start. Then the
crossbar and the pool saturate alike (the paper: "the saturation throughput for either
structure is the same"), at 0.752 with fixed lengths and 0.640 with exponential ones (its
"75% vs. 64%"), and the pool has the lower latency. The textbook crossbar (release "end")
gives 0.618 and 8/15; the unlimited pool 1.

Fixed lengths run slotted (Bernoulli arrivals, one message per slot per output: the model of
Karol, Hluchyj and Morgan). Bimodal lengths run slotted too, a slot the short message's length
and a long one `bimodal[0]` slots, drawn with probability `bimodal[1]` as it starts (nothing
before then depends on a length); loads, times and latencies are converted to and from mean
lengths at the edges. Exponential lengths run in continuous time, exactly: the state is
a Markov chain (Poisson arrivals, memoryless transmissions), simulated by uniformisation, one
potential event (an arrival at an input at rate load, or the end of a transmission at an
output at rate 1) per step, after exponential gaps. A fine time grid would only approximate
it, in as many steps. Independent runs (loads x replicas) are the rows of numpy arrays and
step together; everything follows from `seed`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

STRUCTURES = ("crossbar", "pool")
LENGTHS = ("fixed", "exponential")  # Figure 1's
LENGTH_CHOICES = LENGTHS + ("bimodal",)
# (slots of a long message, share of long messages): the TIC's quad-messages, "trains of 4
# messages that traverse the interconnect as one unit" (section 3.2, footnote 1), as 5% of them
BIMODAL = (4, 0.05)
RELEASES = ("end", "start")


# Head-of-line saturation of the slotted input-queued crossbar, fixed lengths (Karol, Hluchyj
# and Morgan, IEEE Trans. Commun. 1987, Table I); 2 - sqrt(2) as n -> infinity.
KAROL_SATURATION = {1: 1.0, 2: 0.75, 3: 0.6825, 4: 0.6553, 5: 0.6399, 6: 0.6302, 7: 0.6234,
                    8: 0.6184, float("inf"): 2 - np.sqrt(2)}


def figure1(structure: str, n: int = 8) -> dict[str, Any]:
    """Keyword arguments for Figure 1's ideal router as read here: one buffer per channel (the
    actual router "differs from the ideal model by having more than one buffer per channel"),
    handed to the transmitter in zero time (release "start")."""
    _check_choice("structure", structure, STRUCTURES)
    return {"release": "start", "buffers": n if structure == "pool" else None}


def exponential_saturation(n: int = 8, messages: int | None = None) -> float:
    """Saturation throughput of `messages` (default n) buffered messages circulating over n
    outputs with exponential lengths, each buffer held to the end of its transmission (the
    crossbar, or a pool of that many buffers, with release="end"). A closed network of n
    identical ./M/1 queues with uniform routing: all states equally likely, so an output is
    busy with probability m / (m + n - 1); n / (2n - 1) -> 1/2 for the crossbar."""
    m = n if messages is None else messages
    return m / (m + n - 1)


def output_queue_latency(load: float, n: int = 8, lengths: str = "fixed") -> float:
    """Mean latency of the unlimited pool (output queueing), exactly. Fixed: a discrete-time
    queue fed by n Bernoulli(load / n) streams waits (n - 1) / n * load / (2 (1 - load)) slots
    (Karol et al. 1987, eq. 9), plus the slot of transmission. Exponential: M/M/1."""
    _check_choice("lengths", lengths, LENGTHS)
    if lengths == "fixed":
        return 1 + (n - 1) / n * load / (2 * (1 - load))
    return 1 / (1 - load)


def simulate(structure: str = "crossbar", lengths: str = "fixed",
             loads: Sequence[float] | float = (0.1, 0.3, 0.5), *, n: int = 8,
             buffers: int | None = None, release: str = "end", duration: float | None = None,
             warmup: float | None = None, replicas: int = 1, seed: int = 1,
             percentiles: Sequence[float] = (50, 99),
             bimodal: tuple[int, float] = BIMODAL) -> pd.DataFrame:
    """Latency and accepted throughput at each offered load.

    One row per load: offered, accepted (messages per output per unit time delivered in the
    window), latency_mean, latency_p<q> for each percentile, messages (latencies measured:
    those that arrived after `warmup` and were delivered by `duration`). Past saturation the
    input FIFOs grow without bound, so the latencies depend on `duration`. Defaults: 4,000
    mean lengths (fixed, bimodal) or 1,000 (exponential), warmup a fifth. `bimodal` (lengths
    "bimodal" only): a long message's length in short ones, and the share of long messages.
    """
    try:
        loads = np.atleast_1d(np.asarray(loads, dtype=float))
    except (TypeError, ValueError):
        raise ValueError(f"loads={loads!r}: allowed offered loads in (0, 1]") from None
    args = _check(structure, lengths, n, buffers, release, duration, warmup, replicas, seed,
                  bimodal=bimodal)
    duration, warmup = args
    if lengths == "bimodal" and structure == "pool" and buffers is None:
        raise ValueError("lengths='bimodal': allowed 'fixed', 'exponential' with the unlimited "
                         "pool (buffers=None); 'bimodal' with the crossbar or a bounded pool")
    if loads.ndim != 1 or not loads.size or not np.all((loads > 0) & (loads <= 1)):
        raise ValueError(f"loads={loads.tolist()}: allowed offered loads in (0, 1]")
    if not all(_is_real(q) and 0 <= q <= 100 for q in percentiles):
        raise ValueError(f"percentiles={percentiles!r}: allowed numbers in [0, 100]")
    rng = np.random.default_rng(seed)
    rows = np.repeat(loads, replicas)
    window = duration - warmup  # mean lengths
    if structure == "pool" and buffers is None:
        lat, row, delivered = _output_queues(lengths, rows, n, duration, warmup, rng)
    else:
        run = _Run(structure, lengths, rows, n, buffers, release, duration, warmup, rng,
                   bimodal=bimodal)
        lat, row, delivered = run.go()
        lat, window = lat / run.unit, (run.duration - run.warmup) / run.unit
    out = []
    for k, load in enumerate(loads):
        mine = slice(k * replicas, (k + 1) * replicas)
        lk = lat[(row >= mine.start) & (row < mine.stop)]
        rec = {"offered": load,
               "accepted": delivered[mine].sum() / (replicas * n * window),
               "latency_mean": lk.mean() if lk.size else np.nan}
        for q in percentiles:
            rec[f"latency_p{q:g}"] = np.percentile(lk, q) if lk.size else np.nan
        rec["messages"] = lk.size
        out.append(rec)
    return pd.DataFrame(out)


def saturation(structure: str = "crossbar", lengths: str = "fixed", *, n: int = 8,
               buffers: int | None = None, release: str = "end", duration: float | None = None,
               warmup: float | None = None, replicas: int = 16, seed: int = 1,
               bimodal: tuple[int, float] = BIMODAL) -> float:
    """Saturation throughput: the messages per output per unit time delivered when every input
    always has a message waiting (an offered load of 1 with unlimited FIFOs: past saturation
    throughput stays at this value; below it, accepted equals offered). Defaults: 1,500 mean
    lengths (fixed, bimodal) or 400 (exponential), warmup a fifth, 16 replicas averaged. The
    unlimited pool returns 1: every output's queue then grows and it never idles."""
    duration, warmup = _check(structure, lengths, n, buffers, release, duration, warmup,
                              replicas, seed, saturated=True, bimodal=bimodal)
    if structure == "pool" and buffers is None:
        return 1.0
    rng = np.random.default_rng(seed)
    run = _Run(structure, lengths, np.ones(replicas), n, buffers, release, duration, warmup,
               rng, saturated=True, bimodal=bimodal)
    _, _, delivered = run.go()
    return float(delivered.sum() * run.unit / (replicas * n * (run.duration - run.warmup)))


# --- checks ---------------------------------------------------------------------------------

def _check_choice(name: str, value: Any, allowed: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name}={value!r}: allowed {', '.join(map(repr, allowed))}")


def _check(structure, lengths, n, buffers, release, duration, warmup, replicas, seed,
           saturated=False, bimodal=BIMODAL) -> tuple[float, float]:
    _check_choice("structure", structure, STRUCTURES)
    _check_choice("lengths", lengths, LENGTH_CHOICES)
    _check_choice("release", release, RELEASES)
    if not _is_int(n) or n < 1:
        raise ValueError(f"n={n!r}: allowed an integer >= 1 (ports)")
    if structure == "crossbar" and buffers is not None:
        raise ValueError(f"buffers={buffers!r}: allowed only None for the crossbar (one buffer "
                         "per input, its FIFO's head); pass buffers with structure='pool'")
    if buffers is not None and (not _is_int(buffers) or buffers < 1):
        raise ValueError(f"buffers={buffers!r}: allowed None (unlimited) or an integer >= 1")
    if not _is_int(replicas) or replicas < 1:
        raise ValueError(f"replicas={replicas!r}: allowed an integer >= 1")
    if not _is_int(seed) or seed < 0:
        raise ValueError(f"seed={seed!r}: allowed an integer >= 0")
    if not (isinstance(bimodal, tuple) and len(bimodal) == 2 and _is_int(bimodal[0])
            and bimodal[0] >= 1 and _is_real(bimodal[1]) and 0 <= bimodal[1] <= 1):
        raise ValueError(f"bimodal={bimodal!r}: allowed (slots of a long message >= 1, share "
                         "of long messages in [0, 1])")
    if duration is None:
        duration = (1500 if saturated else 4000) if lengths != "exponential" else \
            (400 if saturated else 1000)
    if not _is_real(duration) or not np.isfinite(duration) or duration <= 0:
        raise ValueError(f"duration={duration!r}: allowed a time > 0 (mean message lengths)")
    if warmup is None:
        warmup = duration / 5
    if not _is_real(warmup) or not 0 <= warmup < duration:
        raise ValueError(f"warmup={warmup!r}: allowed 0 <= warmup < duration ({duration})")
    if lengths == "fixed":
        duration, warmup = int(np.ceil(duration)), int(np.ceil(warmup))
        if warmup >= duration:
            raise ValueError(f"warmup={warmup!r}: allowed fewer slots than duration")
    return float(duration), float(warmup)


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _is_real(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


# --- the unlimited pool: output queues, exactly ---------------------------------------------

def _output_queues(lengths, loads, n, duration, warmup, rng):
    """Every message joins its output's FIFO at once; each output is a single server, so
    Lindley's recursion gives the departures, vectorised by a running maximum per queue."""
    rows = len(loads)
    if lengths == "fixed":
        slots = int(duration)
        arr = rng.random((rows, slots, n)) < loads[:, None, None]
        row, t, _ = np.nonzero(arr)
        t = t.astype(float)
    else:
        counts = rng.poisson(loads * n * duration)
        row = np.repeat(np.arange(rows), counts)
        t = rng.random(row.size) * duration
    dest = rng.integers(0, n, row.size)
    tie = rng.random(row.size)  # same-slot arrivals are served in random order
    order = np.lexsort((tie, t, dest, row))
    row, dest, t = row[order], dest[order], t[order]
    group = row * n + dest
    first = np.r_[True, group[1:] != group[:-1]]
    start_of = np.maximum.accumulate(np.where(first, np.arange(row.size), 0))
    size = np.ones(row.size) if lengths == "fixed" else rng.exponential(1.0, row.size)
    work = np.cumsum(size)
    before = work - size  # work of the earlier messages in the array
    before_group = before - before[start_of]  # ... in this queue
    # done_k = B_k + s_k + max_{m <= k} (a_m - B_m), B_k the work ahead of message k in its
    # queue; the offset keeps each queue's running maximum from seeing the queues before it.
    offset = group * (2.0 * (duration + (before_group.max() if row.size else 0) + 1))
    done = before_group + size + (np.maximum.accumulate(t - before_group + offset) - offset)
    keep = (t >= warmup) & (done < duration)
    delivered = np.bincount(row[(done >= warmup) & (done < duration)], minlength=rows)
    return done[keep] - t[keep], row[keep], delivered


# --- buffers, head-of-line and the pool: a step simulation ----------------------------------

class _Run:
    """Independent runs as rows. State: per input a FIFO ring [row, input, depth] of arrival
    times and destinations; B buffers [row, buffer] (crossbar: buffer i is input i's head;
    pool: shared), each free (0), contending (1) or held by its transmission (2); per output
    whether it transmits, the arrival time of what it sends and the buffer it holds."""

    def __init__(self, structure, lengths, loads, n, buffers, release, duration, warmup, rng,
                 saturated=False, bimodal=BIMODAL):
        self.pool = structure == "pool"
        self.fixed = lengths != "exponential"  # slotted
        self.start = release == "start"
        # bimodal: time runs in short-message slots, `unit` of them a mean length
        self.long, self.long_share = bimodal if lengths == "bimodal" else (1, 0.0)
        self.unit = 1 + (self.long - 1) * self.long_share
        self.loads, self.n, self.rng, self.saturated = loads / self.unit, n, rng, saturated
        self.duration = float(np.ceil(duration * self.unit))
        self.warmup = float(np.ceil(warmup * self.unit))
        self.left = np.zeros((len(loads), n), dtype=np.int64)  # slotted: slots still to send
        self.tie = 0.5 if self.fixed else 0.0  # slotted arrival times tie: break at random
        r, b = len(loads), (buffers if structure == "pool" else n)
        self.depth = 64
        self.qa = np.zeros((r, n, self.depth))
        self.qd = np.zeros((r, n, self.depth), dtype=np.int64)
        self.qh = np.zeros((r, n), dtype=np.int64)
        self.qn = np.zeros((r, n), dtype=np.int64)
        self.ba = np.zeros((r, b))
        self.bd = np.zeros((r, b), dtype=np.int64)
        self.bs = np.zeros((r, b), dtype=np.int8)
        self.busy = np.zeros((r, n), dtype=bool)
        self.oa = np.zeros((r, n))
        self.oslot = np.zeros((r, n), dtype=np.int64)
        self.t = np.zeros(r)
        self.delivered = np.zeros(r, dtype=np.int64)
        self.lat: list[np.ndarray] = []
        self.lat_row: list[np.ndarray] = []

    def go(self):
        if self.fixed:
            every = np.ones((len(self.loads), self.n), dtype=bool)
            for slot in range(int(self.duration)):
                self.t[:] = slot
                self.complete(every)  # what started in the last slot ends now
                if not self.saturated:
                    self.arrive(self.rng.random(every.shape) < self.loads[:, None])
                self.cascade()
        else:
            self.exponential()
        lat = np.concatenate(self.lat) if self.lat else np.zeros(0)
        row = np.concatenate(self.lat_row) if self.lat_row else np.zeros(0, dtype=np.int64)
        return lat, row, self.delivered

    def exponential(self):
        r, n = len(self.loads), self.n
        arrivals = 0.0 if self.saturated else n * self.loads
        rate = arrivals + n  # uniformised: every input at `load`, every output at 1
        cols = np.arange(n)
        while True:
            self.t += self.rng.exponential(1.0, r) / rate
            live = self.t < self.duration
            if not live.any():
                return
            u = self.rng.random(r) * rate
            arrival = u < arrivals
            which = np.where(arrival, u / np.maximum(self.loads, 1e-300),
                             u - arrivals).astype(np.int64).clip(0, n - 1)
            hit = (cols == which[:, None]) & live[:, None]
            self.complete(hit & ~arrival[:, None])
            if not self.saturated:
                self.arrive(hit & arrival[:, None])
            self.cascade()

    def complete(self, mask):
        if self.fixed:  # slotted: a transmission ends after its `left` slots
            self.left -= mask & self.busy
            mask = mask & (self.left == 0)
        done = mask & self.busy
        if not done.any():
            return
        r, o = np.nonzero(done)
        t = self.t[r]
        window = (t >= self.warmup) & (t < self.duration)
        self.delivered += np.bincount(r[window], minlength=len(self.loads))
        if not self.saturated:
            measured = window & (self.oa[r, o] >= self.warmup)
            self.lat.append(t[measured] - self.oa[r, o][measured])
            self.lat_row.append(r[measured])
        self.busy[r, o] = False
        if not self.start:
            self.bs[r, self.oslot[r, o]] = 0

    def arrive(self, mask):
        r, i = np.nonzero(mask)
        if not r.size:
            return
        if (self.qn[r, i] >= self.depth).any():
            self.grow()
        pos = (self.qh[r, i] + self.qn[r, i]) % self.depth
        self.qa[r, i, pos] = self.t[r]
        self.qd[r, i, pos] = self.rng.integers(0, self.n, r.size)
        self.qn[r, i] += 1

    def grow(self):
        idx = (self.qh[..., None] + np.arange(self.depth)) % self.depth
        pad = [(0, 0), (0, 0), (0, self.depth)]
        self.qa = np.pad(np.take_along_axis(self.qa, idx, 2), pad)
        self.qd = np.pad(np.take_along_axis(self.qd, idx, 2), pad)
        self.qh[:] = 0
        self.depth *= 2

    def cascade(self):
        """Fill free buffers, start free outputs; with release="start" a start frees a buffer,
        so repeat until nothing moves (all at the same instant)."""
        while True:
            self.fill()
            if not self.assign() or not self.start:
                return

    def take_heads(self, r, i, s):
        """Move input i's FIFO head (a fresh message when saturated) to buffer s, in row r."""
        if self.saturated:
            self.ba[r, s] = self.t[r]
            self.bd[r, s] = self.rng.integers(0, self.n, r.size)
        else:
            h = self.qh[r, i]
            self.ba[r, s] = self.qa[r, i, h]
            self.bd[r, s] = self.qd[r, i, h]
            self.qh[r, i] = (h + 1) % self.depth
            self.qn[r, i] -= 1
        self.bs[r, s] = 1

    def fill(self):
        if not self.pool:
            r, i = np.nonzero((self.bs == 0) & ((self.qn > 0) | self.saturated))
            if r.size:
                self.take_heads(r, i, i)
            return
        while True:  # one head per input per round, oldest first, while buffers are free
            free = self.bs == 0
            waiting = (self.qn > 0) | self.saturated
            if not (free.any(1) & waiting.any(1)).any():
                return
            head = np.take_along_axis(self.qa, self.qh[..., None], 2)[..., 0]
            key = np.where(waiting, head + self.tie * self.rng.random(head.shape), np.inf)
            rank = np.argsort(np.argsort(key, 1, kind="stable"), 1)
            go = waiting & (rank < free.sum(1, keepdims=True))
            r, i = np.nonzero(go)
            slots = np.argsort(~free, 1, kind="stable")  # free buffers first
            self.take_heads(r, i, slots[r, rank[r, i]])

    def assign(self) -> bool:
        """Each idle output takes its oldest contending message (ties at random)."""
        contending = self.bs == 1
        if not contending.any():
            return False
        key = np.where(contending, self.ba + self.tie * self.rng.random(self.ba.shape), np.inf)
        mine = self.bd[:, None, :] == np.arange(self.n)[None, :, None]  # [row, output, buffer]
        key = np.where(mine, key[:, None, :], np.inf)
        best = np.argmin(key, 2)
        go = ~self.busy & np.isfinite(np.take_along_axis(key, best[..., None], 2)[..., 0])
        if not go.any():
            return False
        r, o = np.nonzero(go)
        s = best[r, o]
        self.busy[r, o] = True
        self.left[r, o] = 1 if self.long_share == 0 else np.where(
            self.rng.random(r.size) < self.long_share, self.long, 1)
        self.oa[r, o] = self.ba[r, s]
        self.oslot[r, o] = s
        self.bs[r, s] = 0 if self.start else 2
        return True
