"""S-Connect's distributed phase-locked loop (Nowatzyk et al., ISCA 1995, section 2.5,
equations 1-8, Figure 6; the TIC's comparator, section 3.3): every node's oscillator (VXCO) is
steered by the phase of the clocks its channels bring in, until all nodes run at one frequency.

The model, with the paper's names (time in s, phases in rad, frequencies in rad/s):

    dphi_i/dt = omega_i + K sum_j a_ij (phi_j + d_ij - phi_i)            (1, differentiated)
              = (A phi + F)_i,  A = K [a_ij], a_ii = -sum_j a_ij,        (2, 3)
                                F_i = omega_i + K sum_j a_ij d_ij

a_ij counts the channels from node j to node i and d_ij is channel j -> i's phase shift, added
to the far phase with the paper's sign. K = Ko Kd is in 1/s (the paper calls it dimensionless,
but in equation 1 it turns a phase in rad into a frequency in rad/s). Equation 3 prints A
without K; equation 2 needs it, and the paper's "the non-zero eigenvalues are proportional to
K" says it is there, so `A` here includes K.

Since A is symmetric (every channel has one back) with rows summing to 0, A = P D P^T with P
orthonormal (left and right eigenvectors are the same), one eigenvalue 0 with eigenvector
1/sqrt(n), the others < 0 on a connected network. Projecting equation 2 onto that eigenvector
(the paper's z_1 = y_1^T phi with y_1 = 1/n, so y_1^T x_1 = 1) gives dz_1/dt = mean(F): every
phase grows at

    omega = (1/n) sum_i (omega_i + K sum_j a_ij d_ij)                    (8)

plus terms c_k exp(lambda_k t) (equation 7) that decay at the rates -lambda_k (`decay_rates`,
K times the graph Laplacian's non-zero eigenvalues). The constants -g_k/lambda_k of equation 7,
taken back through P, are the steady-state phases against a clock at omega (`phase_offsets`).
Were the channels not paired (A not symmetric), omega would weight F by the left eigenvector
of eigenvalue 0 instead of the mean; the model refuses such an `a`, as the paper assumes them
paired.

    from lockstep.sconnect import pll
    m = pll.model("configs/sconnect_hypercube64.toml", pll.free_running(64, seed=1), K=1e5)
    m.omega, m.decay_rates[0], m.phase_offsets   # equation 8, the slowest of 7, steady phases
    df = m.integrate(10 * m.time_constant)       # equation 2 integrated from phi(0) = 0
    df["frequency"].plot()                       # every node's dphi/dt [rad/s] against t [s]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

TIC_CLOCK_HZ = 51.84e6  # the alpha boards' VXCO (section 4)
TIC_COMPARATOR_RANGE = 4.0  # rad: the TIC's FIFO-depth comparator (section 3.3); limit = 2.0
RAD_PER_PPM = 2 * math.pi * TIC_CLOCK_HZ * 1e-6  # a frequency offset of 1 ppm, in rad/s


class DistributedPLL:
    """The loop of equations 1-3 on n nodes, solved as the paper does (eigen-decomposition of
    A, equations 4-8) and numerically (`integrate`).

    a: [n, n] channels from node j to node i, symmetric, zero diagonal, connected.
    d: [n, n] phase shift of channel j -> i in rad (used where a_ij > 0), or a scalar.
    omega_i: [n] free-running frequencies in rad/s (control voltage 0), or a scalar.
    K: loop gain Ko * Kd in 1/s, > 0.
    """

    def __init__(self, a: Any, omega_i: Any, K: float, d: Any = 0.0):
        self.a = _adjacency(a)
        n = len(self.a)
        self.n = n
        self.d = _broadcast("d", d, (n, n), "an [n, n] array (rad) or a scalar")
        self.omega_i = _broadcast("omega_i", omega_i, (n,), "an [n] array (rad/s) or a scalar")
        if not (np.isfinite(K) and K > 0):
            raise ValueError(f"K = {K!r}: allowed a finite loop gain Ko * Kd > 0 (1/s); "
                             "at 0 the oscillators run free and never lock")
        self.K = float(K)
        # Channels as flat lists, so the right-hand side is one gather and one bincount.
        self._i, self._j = np.nonzero(self.a)
        self._w, self._dd = self.a[self._i, self._j], self.d[self._i, self._j]

        A0 = self.a - np.diag(self.a.sum(axis=1))  # equation 3 as printed
        self.A = self.K * A0
        self.F = self.omega_i + self.K * (self.a * self.d).sum(axis=1)
        lam, P = np.linalg.eigh(self.A)
        order = np.argsort(-lam)  # 0 first, then by growing magnitude
        lam, P = lam[order], P[:, order]
        lam[0], P[:, 0] = 0.0, 1 / math.sqrt(n)  # exactly, not to rounding
        self.lam, self.P = lam, P  # D = diag(lam); Q = P since A = A^T
        self.omega = float(self.F.mean())  # equation 8 (see the module docstring)
        self.decay_rates = -lam[1:]  # equation 7's rates, slowest first
        g = P.T @ (self.F - self.omega)  # equation 5's g_k, in a frame turning at omega
        self._g = g
        self.phase_offsets = -P[:, 1:] @ (g[1:] / lam[1:])  # equation 7's constants, mean 0

    @property
    def time_constant(self) -> float:
        """Seconds for the slowest transient term of equation 7 to fall by e."""
        return 1.0 / self.decay_rates[0]

    def with_K(self, K: float) -> "DistributedPLL":
        """The same network and oscillators at another loop gain."""
        return DistributedPLL(self.a, self.omega_i, K, self.d)

    def free_running_drift(self) -> pd.DataFrame:
        """The TIC's PLL diagnostic (section 3.4): with the outbound data turned off the loop
        is open, and the receive FIFO of channel j -> i fills at (omega_j - omega_i) / 2 pi
        words per second (empties where negative), comparing the free-running clocks."""
        words = (self.omega_i[self._j] - self.omega_i[self._i]) / (2 * np.pi)
        return pd.DataFrame({"i": self._i, "j": self._j, "fifo_words_per_s": words})

    def open_loop(self, t: Any, phi0: Any = 0.0) -> pd.DataFrame:
        """The loop disabled at t = 0 (section 3.4's PLL diagnostic: "By turning the outbound
        data stream off, the distributed PLL is disabled"): no comparator steers its VXCO, so
        from phases phi0 every node runs at its free-running omega_i. Times t [s]; columns as
        `integrate` returns them."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        theta0 = _broadcast("phi0", phi0, (self.n,), "an [n] array (rad) or a scalar")
        theta = theta0 + np.outer(t, self.omega_i - self.omega)
        return self._frame(t, np.broadcast_to(self.omega_i, theta.shape), theta)

    def fifo_slips(self, frame: pd.DataFrame) -> pd.DataFrame:
        """Each channel's receive-FIFO slips between a frame's first and last rows: the whole
        words by which the writer (node j's clock, through its stream) gained on the reader
        (node i's), as overflows (> 0) or underflows (< 0). A FIFO spans less than a word's 2 pi
        of phase (the TIC's 4 rad) and its under-/overflow logic does not wrap (section 3.3),
        so every word gained or lost past its range is one under- or overflow; counted here as
        the whole words of 2 pi the channel's phase difference crossed."""
        theta = frame["phase"].to_numpy()
        err = theta[:, self._j] + self._dd - theta[:, self._i]
        words = np.floor(err[-1] / (2 * np.pi)) - np.floor(err[0] / (2 * np.pi))
        return pd.DataFrame({"i": self._i, "j": self._j, "slips": words.astype(np.int64)})

    def offsets_from_slips(self, slips: pd.DataFrame, t: float) -> np.ndarray:
        """What the PLL diagnostic reads: every node's free-running frequency less the nodes'
        mean, in rad/s, from `fifo_slips` over t seconds with the loop open (channel j -> i
        slips (omega_j - omega_i) t / 2 pi words), by least squares over the channels."""
        rows = np.arange(len(slips))
        M = np.zeros((len(slips) + 1, self.n))
        M[rows, slips.j], M[-1] = 1.0, 1.0  # the last row fixes the mean at 0
        M[rows, slips.i] -= 1.0
        rhs = np.append(slips.slips.to_numpy() * 2 * np.pi / t, 0.0)
        return np.linalg.lstsq(M, rhs, rcond=None)[0]

    # -- solutions -------------------------------------------------------------------------

    def _slope(self, theta: np.ndarray, limit: float | None,
               r1_r2: float = 2.0, tuning: float | None = None) -> np.ndarray:
        # Equation 1 differentiated, in a frame turning at omega: theta = phi - omega t.
        # theta: [..., n]; the phase detector sees phi_j + d_ij - phi_i on every channel.
        err = theta[..., self._j] + self._dd - theta[..., self._i]
        if limit is not None:
            err = np.clip(err, -limit, limit)
            if r1_r2 != 2.0:
                err = dac_transfer(err, limit, r1_r2)
        shape = theta.shape[:-1]
        flat = err.reshape(-1, len(self._i)) * self._w
        rows = np.arange(flat.shape[0])[:, None] * self.n + self._i  # one bincount for all t
        pull = np.bincount(rows.ravel(), flat.ravel(), minlength=flat.shape[0] * self.n)
        steer = self.K * pull.reshape(*shape, self.n)
        if tuning is not None:  # the VXCO's control goes no further than its tuning range
            steer = np.clip(steer, -tuning, tuning)
        return self.omega_i - self.omega + steer

    def integrate(self, t_end: float, phi0: Any = 0.0, limit: float | None = None,
                  points: int = 400, method: str = "RK45", rtol: float = 1e-10,
                  atol: float = 1e-12, r1_r2: float = 2.0,
                  tuning: float | None = None) -> pd.DataFrame:
        """Equation 2 integrated numerically from phi(0) = phi0 (rad, [n] or a scalar) over
        [0, t_end] s, sampled at `points` times.

        limit: clip every channel's phase difference to [-limit, limit] rad, the limiting
        phase/frequency detector the paper says still synchronises (the TIC's FIFO comparator
        spans 4 rad: limit = 2); None is the linear detector of the analysis.
        r1_r2: with a limit, the ratio R1/R2 of the TIC's 2-bit DAC (section 3.3; see
        `dac_transfer`): 2 (the default) is linear, between 1 and 2 the gain grows with the
        deviation from the half-full point, as the TIC's R1 > R2.
        tuning: the VXCOs' tuning range in rad/s: no node's frequency moves further than this
        from its free-running omega_i, however hard the loop steers it (section 2.6: "a faulty
        oscillator could prevent global synchronization by forcing a node to transmit at a
        speed that is outside of the tuning range of the other nodes"; the paper gives no
        range, calling it "narrow"); None: unbounded, as the analysis.
        method: a scipy.integrate.solve_ivp method.

        Returns a DataFrame indexed by t [s] with columns ("frequency", node), dphi_i/dt in
        rad/s, and ("phase", node), phi_i(t) - omega t in rad (the phase against a clock at
        the analytic omega; the raw phase grows by 3e8 rad/s and would hide the differences).
        """
        if not (np.isfinite(t_end) and t_end > 0):
            raise ValueError(f"t_end = {t_end!r}: allowed a finite time > 0 (s)")
        if limit is not None and not (np.isfinite(limit) and limit > 0):
            raise ValueError(f"limit = {limit!r}: allowed None (linear) or a phase > 0 (rad)")
        if not 1 < r1_r2 <= 2 or (r1_r2 != 2.0 and limit is None):
            raise ValueError(f"r1_r2 = {r1_r2!r} (limit {limit!r}): allowed 1 < R1/R2 <= 2 with "
                             "a limit (2: linear; at 1 or below the DAC's levels are not "
                             "monotonic, above 2 its outer steps shrink)")
        if tuning is not None and not (np.isfinite(tuning) and tuning > 0):
            raise ValueError(f"tuning = {tuning!r}: allowed None (unbounded) or a range > 0 "
                             "(rad/s)")
        if int(points) < 2:
            raise ValueError(f"points = {points!r}: allowed an integer >= 2")
        theta0 = _broadcast("phi0", phi0, (self.n,), "an [n] array (rad) or a scalar")
        t = np.linspace(0.0, t_end, int(points))
        from scipy.integrate import solve_ivp  # imported here: `import lockstep` stays quick

        implicit = method in ("Radau", "BDF", "LSODA")  # stiff: many nodes, high degree
        linear = limit is None and tuning is None
        jac = {"jac": lambda *_: self.A} if implicit and linear else {}  # constant
        sol = solve_ivp(lambda _, y: self._slope(y, limit, r1_r2, tuning), (0.0, t_end), theta0,
                        method=method, t_eval=t, rtol=rtol, atol=atol, **jac)
        if not sol.success:
            raise RuntimeError(f"solve_ivp ({method}) failed: {sol.message}")
        theta = sol.y.T
        return self._frame(t, self.omega + self._slope(theta, limit, r1_r2, tuning), theta)

    def analytic(self, t: Any, phi0: Any = 0.0) -> pd.DataFrame:
        """The paper's solution (equations 6 and 7 back-substituted, phi = P z) at times t [s]
        from phi(0) = phi0, for the linear detector; columns as `integrate` returns them."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        theta0 = _broadcast("phi0", phi0, (self.n,), "an [n] array (rad) or a scalar")
        z0 = self.P.T @ theta0
        lam, g = self.lam[1:], self._g[1:]
        c = z0[1:] + g / lam  # equation 7 at t = 0 fixes c_k
        decay = np.exp(np.outer(t, lam))  # [T, n - 1]
        theta = self.P[:, 0] * z0[0] + (decay * c - g / lam) @ self.P[:, 1:].T
        freq = self.omega + (decay * (lam * c)) @ self.P[:, 1:].T
        return self._frame(t, freq, theta)

    def _frame(self, t: np.ndarray, freq: np.ndarray, theta: np.ndarray) -> pd.DataFrame:
        cols = pd.MultiIndex.from_product([["frequency", "phase"], range(self.n)],
                                          names=["quantity", "node"])
        return pd.DataFrame(np.hstack([freq, theta]), index=pd.Index(t, name="t"),
                            columns=cols)

    def __repr__(self) -> str:
        return (f"DistributedPLL(n={self.n}, channels={int(self.a.sum())}, K={self.K:g}/s, "
                f"omega={self.omega:.6g} rad/s, time_constant={self.time_constant:.3g} s)")


# -- building the model ----------------------------------------------------------------------


def model(topology: Any, omega_i: Any, K: float, d: Any = None,
          phase_per_cycle: float = 0.0) -> DistributedPLL:
    """The loop on a topology: an [n, n] array of channel counts a_ij, or a lockstep
    configuration (a Config, a dict or a TOML path; its routers' channels, see `channels`).

    d: channel phase shifts (rad, [n, n] or a scalar); default 0 for an array, and for a
    configuration phase_per_cycle x each link's delay in cycles. The paper measures d_ij as a
    phase at omega, which for L whole cycles is 2 pi L (phase_per_cycle = 2 pi; a real wire
    shows the far clock late, a negative d in the paper's sign). The default 0 follows the
    TIC, whose FIFO comparator is referenced to its half-full point when a channel starts, so
    whole cycles of delay drop out (section 3.3).
    """
    if isinstance(topology, (np.ndarray, list, tuple)):
        a, delay = np.asarray(topology, dtype=float), None
    else:
        a, delay = channels(topology)
    if d is None:
        if not np.isfinite(phase_per_cycle):
            raise ValueError(f"phase_per_cycle = {phase_per_cycle!r}: allowed a finite "
                             "phase in rad")
        d = 0.0 if delay is None else phase_per_cycle * delay
    return DistributedPLL(a, omega_i, K, d)


def channels(cfg: Any) -> tuple[np.ndarray, np.ndarray]:
    """(a, delay) of a lockstep configuration, one PLL node per router: a [n, n] channels from
    router j to router i (read from the engine's `peer` table), delay [n, n] their mean delay
    in cycles (0 where none). With topology.dual_tic the two TICs of a node share one VXCO
    (Figure 10: one crystal per box), so they are one node and their parallel link no channel.
    """
    from .. import Simulator
    from ..config import as_config

    cfg = as_config(cfg)
    sim = Simulator(cfg)
    peer = sim.state("peer")  # [routers, ports] router * ports + port, -1 none
    routers, ports = peer.shape
    r, p = np.nonzero(peer >= 0)
    q = peer[r, p] // ports  # channel q -> r arrives at r's port p
    delay = sim.state("link_delay")[r, p].astype(float)
    owner = np.arange(routers) // (2 if _is_dual(cfg) else 1)
    n = int(owner.max()) + 1
    a, total = np.zeros((n, n)), np.zeros((n, n))
    np.add.at(a, (owner[r], owner[q]), 1.0)
    np.add.at(total, (owner[r], owner[q]), delay)
    np.fill_diagonal(a, 0.0)  # a dual-TIC node's own parallel link
    np.fill_diagonal(total, 0.0)
    return a, np.divide(total, a, out=np.zeros_like(total), where=a > 0)


def dac_transfer(err: Any, limit: float, r1_r2: float = 2.0) -> Any:
    """The TIC's comparator output for phase errors `err` in [-limit, limit] rad (section 3.3:
    the FIFO depth through "a simple 2 bit digital to analog converter, that consists of two
    external resistors, R_1 and R_2"), in rad: at R_1 = 2 R_2 the error itself (linear).

    Our reading: the depth's 4 quarters are 2 bits, R_1 on the low bit and R_2 on the high one,
    so the levels are 0, 1/R_1, 1/R_2, 1/R_1 + 1/R_2: R_1 = 2 R_2 makes them evenly spaced (a
    linear detector), and R_2 < R_1 < 2 R_2 makes the middle step, across the half-full point,
    smaller than the outer two, "the loop gain increases with the deviation from the fifo
    half-full point". The staircase's steps sit at -limit/2, 0 and limit/2; averaged over the
    channels we take it piecewise linear, its slope within limit/2 of half-full in proportion to
    the middle step and outside to the outer ones (s and 2 - s, s = 2 (R_1/R_2 - 1) / (R_1/R_2)),
    so that the full scale stays limit."""
    s = 2 * (r1_r2 - 1) / r1_r2
    half = limit / 2
    mag = np.abs(err)
    return np.sign(err) * np.where(mag <= half, s * mag, s * half + (2 - s) * (mag - half))


def free_running(n: int, f0: float = TIC_CLOCK_HZ, ppm: float = 100.0,
                 seed: int = 0) -> np.ndarray:
    """[n] free-running frequencies omega_i in rad/s, uniform within +-ppm of f0 Hz (the
    alpha boards' 51.84 MHz VXCOs by default)."""
    rng = np.random.default_rng(seed)
    return 2 * np.pi * f0 * (1 + ppm * 1e-6 * rng.uniform(-1, 1, int(n)))


def to_ppm(omega: Any, f0: float = TIC_CLOCK_HZ) -> Any:
    """Frequencies in rad/s (array, Series or DataFrame) as parts per million off f0 Hz."""
    return (omega / (2 * np.pi * f0) - 1) * 1e6


def settling_time(frame: pd.DataFrame, tolerance: float) -> float:
    """The first sampled time after which the spread of the node frequencies (max - min, in
    the frame's units) stays within `tolerance`; nan if it never does."""
    freq = frame["frequency"] if "frequency" in frame.columns.get_level_values(0) else frame
    spread = (freq.max(axis=1) - freq.min(axis=1)).to_numpy()
    outside = np.nonzero(spread > tolerance)[0]
    if len(outside) == 0:
        return float(freq.index[0])
    if outside[-1] == len(spread) - 1:
        return math.nan
    return float(freq.index[outside[-1] + 1])


# -- helpers ---------------------------------------------------------------------------------


def _adjacency(a: Any) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] < 2:
        raise ValueError(f"a of shape {a.shape}: allowed a square [n, n] array of channel "
                         "counts, n >= 2")
    if not np.isfinite(a).all() or (a < 0).any():
        raise ValueError("a: allowed finite channel counts >= 0, got "
                         f"{a[~np.isfinite(a) | (a < 0)][:4].tolist()}")
    if np.diagonal(a).any():
        node = int(np.flatnonzero(np.diagonal(a))[0])
        raise ValueError(f"a[{node}, {node}] = {a[node, node]:g}: allowed 0 on the diagonal "
                         "(a_ii is fixed by equation 3)")
    if not np.array_equal(a, a.T):
        i, j = (int(x[0]) for x in np.nonzero(a != a.T))
        raise ValueError(f"a[{i}, {j}] = {a[i, j]:g} but a[{j}, {i}] = {a[j, i]:g}: allowed a "
                         "symmetric a (section 2.5: every channel has one in reverse, A = A^T)")
    seen = np.zeros(len(a), dtype=bool)
    seen[0] = True
    frontier = seen.copy()
    while frontier.any():  # breadth-first, a whole layer at a time
        frontier = (a[:, frontier].sum(axis=1) > 0) & ~seen
        seen |= frontier
    if not seen.all():
        cut = np.flatnonzero(~seen)
        raise ValueError(f"a: a disconnected topology ({len(a)} nodes; {len(cut)} cannot reach "
                         f"node 0, e.g. {cut[:5].tolist()}): allowed a connected network (A "
                         "irreducible, section 2.5), else each part locks to its own frequency")
    return a


def _broadcast(name: str, value: Any, shape: tuple[int, ...], allowed: str) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        arr = np.full(shape, float(arr))
    if arr.shape != shape:
        raise ValueError(f"{name} of shape {arr.shape}: allowed {allowed}, shape {shape} for "
                         f"the {shape[0]} nodes of a")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: allowed finite values, got non-finite ones")
    return arr.copy()


def _is_dual(cfg) -> bool:
    return cfg.get("topology.kind") in ("graph", "hypercube", "random_regular") and bool(
        cfg.get("topology.dual_tic"))
