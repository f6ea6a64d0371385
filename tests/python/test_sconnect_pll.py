"""S-Connect's distributed phase-locked loop (section 2.5, equations 1-8): the integrated node
frequencies converge to equation 8's omega on a ring, the 64-node hypercube and a random
graph; the slowest transient decays at K times the Laplacian's smallest non-zero eigenvalue
and scales with 1/K; phases lock with the analytic offsets (none for equal oscillators); the
limiting detector; a tuning range and an oscillator outside it; the loop opened (FIFO slips);
channels and delays read from configurations; refused input."""

import numpy as np
import pytest
from conftest import REPO

import lockstep as ls

pll = ls.sconnect.pll
CONFIGS = REPO / "configs"


def ring(n: int) -> np.ndarray:
    a = np.zeros((n, n))
    i = np.arange(n)
    a[i, (i + 1) % n] = a[(i + 1) % n, i] = 1
    return a


def equation_8(a, d, omega_i, K):
    # Written out node by node, apart from the model's vectorised form.
    n = len(a)
    return sum(omega_i[i] + K * sum(a[i, j] * d[i, j] for j in range(n) if j != i)
               for i in range(n)) / n


def spread(frame):
    f = frame["frequency"]
    return (f.max(axis=1) - f.min(axis=1)).to_numpy()


def decay_fit(frame, start, stop):
    # Slope of log(frequency spread) over [start, stop] (s): the slowest decay rate.
    t = frame.index.to_numpy()
    keep = (t >= start) & (t <= stop)
    return -np.polyfit(t[keep], np.log(spread(frame)[keep]), 1)[0]


def networks():
    rng = np.random.default_rng(7)
    d = rng.uniform(-0.2, 0.2, (16, 16))  # not symmetric: d_ij need not equal d_ji
    yield "ring16", pll.model(ring(16), pll.free_running(16, seed=1), K=1e4, d=d)
    yield "hypercube64", pll.model(CONFIGS / "sconnect_hypercube64.toml",
                                   pll.free_running(64, seed=2), K=1e5, phase_per_cycle=0.05)
    yield "random256", pll.model(CONFIGS / "sconnect_random256.toml",
                                 pll.free_running(256, seed=3), K=1e5)


NETWORKS = dict(networks())


@pytest.mark.parametrize("name", NETWORKS)
def test_frequencies_converge_to_equation_8(name):
    m = NETWORKS[name]
    assert m.omega == pytest.approx(equation_8(m.a, m.d, m.omega_i, m.K), rel=1e-14)
    df = m.integrate(14 * m.time_constant, points=300)
    start, end = df["frequency"].iloc[0], df["frequency"].iloc[-1]
    assert np.ptp(start) > 1e4  # +-100 ppm of 51.84 MHz apart at turn-on (rad/s)
    assert np.abs(end - m.omega).max() < 1e-5 * np.ptp(start)
    assert np.abs(end - m.omega).max() / m.omega < 1e-9  # within 1 ppb of equation 8


# Where to fit: late enough that the next eigenvalue's terms have died (the random graph's
# lambda_3 is only 1.2 x lambda_2), early enough that the spread is above the solver's error.
FIT = {"ring16": (5, 10), "hypercube64": (5, 10), "random256": (11, 17)}


@pytest.mark.parametrize("name", NETWORKS)
def test_slowest_decay_is_the_smallest_nonzero_eigenvalue(name):
    m = NETWORKS[name]
    L = -m.A / m.K  # the graph Laplacian: its eigenvalues times K are the decay rates
    lam2 = np.sort(np.linalg.eigvalsh(L))[1]
    assert m.decay_rates[0] == pytest.approx(m.K * lam2, rel=1e-9)
    assert (np.diff(m.decay_rates) >= -1e-9 * m.K).all()
    tau, (start, stop) = m.time_constant, FIT[name]
    df = m.integrate(stop * tau, points=400)
    assert decay_fit(df, start * tau, stop * tau) == pytest.approx(m.decay_rates[0], rel=0.01)


def test_ring_lambda_2_is_the_textbook_one():
    n, K = 16, 1e4
    m = NETWORKS["ring16"]
    assert m.decay_rates[0] == pytest.approx(K * 2 * (1 - np.cos(2 * np.pi / n)), rel=1e-12)


def test_double_gain_halves_the_transient():
    a, omega_i = ring(12), pll.free_running(12, seed=4)
    m1 = pll.model(a, omega_i, K=1e4)
    m2 = m1.with_K(2e4)
    assert m2.decay_rates == pytest.approx(2 * m1.decay_rates, rel=1e-12)
    assert m2.omega == m1.omega  # no delays: equation 8 does not depend on K
    t_end = 10 * m1.time_constant
    df1, df2 = m1.integrate(t_end, points=801), m2.integrate(t_end / 2, points=801)
    # theta(t; 2K) = theta(2t; K) / 2: the same frequency curve in half the time.
    assert np.abs(df2["frequency"].to_numpy() - df1["frequency"].to_numpy()).max() < 1e-3
    tau1 = 1 / decay_fit(df1, 5 * m1.time_constant, t_end)
    tau2 = 1 / decay_fit(df2, 5 * m2.time_constant, t_end / 2)
    assert tau2 == pytest.approx(tau1 / 2, rel=0.01)
    tol = pll.RAD_PER_PPM  # 1 ppm
    s1, s2 = pll.settling_time(df1, tol), pll.settling_time(df2, tol)
    assert s2 == pytest.approx(s1 / 2, rel=0.02)


def test_equal_oscillators_lock_with_zero_offset():
    m = pll.model(ring(10), 2 * np.pi * pll.TIC_CLOCK_HZ, K=1e4)
    assert np.abs(m.phase_offsets).max() < 1e-12
    phi0 = np.random.default_rng(5).uniform(-1, 1, 10)
    df = m.integrate(25 * m.time_constant, phi0=phi0)
    end = df["phase"].iloc[-1].to_numpy()
    assert np.ptp(end) < 1e-8  # all phases equal
    assert end.mean() == pytest.approx(phi0.mean(), abs=1e-9)  # the mean phase is conserved
    assert np.abs(df["frequency"].iloc[-1] - m.omega).max() < 1e-6


@pytest.mark.parametrize("name", ["ring16", "hypercube64"])
def test_steady_phase_differences_match_the_analytic_ones(name):
    m = NETWORKS[name]
    df = m.integrate(25 * m.time_constant, points=50)
    theta = df["phase"].iloc[-1].to_numpy()
    i, j = np.nonzero(m.a)  # every channel j -> i
    measured = theta[j] - theta[i]
    analytic = m.phase_offsets[j] - m.phase_offsets[i]
    assert np.abs(measured - analytic).max() < 1e-7
    assert np.abs(analytic).max() > 1e-3  # the oscillators differ, so do the phases
    # Locked, every node's detectors pull it from omega_i to omega (equation 1 at rest).
    err = np.zeros_like(m.a)
    err[i, j] = m.phase_offsets[j] + m.d[i, j] - m.phase_offsets[i]
    assert m.omega_i + m.K * (m.a * err).sum(axis=1) == pytest.approx(
        np.full(m.n, m.omega), rel=1e-13)


def test_paper_solution_and_integrators_agree():
    m = NETWORKS["ring16"]
    phi0 = np.random.default_rng(6).uniform(-3, 3, 16)
    t_end = 6 * m.time_constant
    exact = m.analytic(np.linspace(0, t_end, 200), phi0=phi0)
    scale = np.ptp(exact["frequency"].iloc[0])  # the frequency spread at turn-on
    for method, tol in [("RK45", 1e-10), ("LSODA", 1e-10)]:
        df = m.integrate(t_end, phi0=phi0, points=200, method=method)
        assert np.allclose(df.index, exact.index)
        assert np.abs(df["frequency"] - exact["frequency"]).to_numpy().max() < tol * scale
        assert np.abs(df["phase"] - exact["phase"]).to_numpy().max() < 1e-4


def test_limiting_detector():
    m = NETWORKS["hypercube64"]
    i, j = np.nonzero(m.a)
    worst = np.abs(m.phase_offsets[j] + m.d[i, j] - m.phase_offsets[i]).max()  # locked
    assert worst < pll.TIC_COMPARATOR_RANGE / 2  # this loop stays inside the TIC's 4 rad
    t_end, phi0 = 20 * m.time_constant, np.random.default_rng(8).uniform(-3, 3, m.n)
    linear = m.integrate(t_end, points=100, phi0=phi0)
    for limit in (pll.TIC_COMPARATOR_RANGE / 2, 1.05 * worst):  # above what the lock needs
        limited = m.integrate(t_end, points=100, phi0=phi0, limit=limit)
        clipped = np.abs(limited["frequency"] - linear["frequency"]).to_numpy().max()
        assert clipped > 1e3  # the limit acted during the transient (rad/s)
        assert np.abs(limited["frequency"].iloc[-1] - m.omega).max() < 1e-5 * spread(linear)[0]
        # The same lock, up to a common phase: the transient clipped the mean's drift too.
        theta = limited["phase"].iloc[-1] - limited["phase"].iloc[-1].mean()
        assert np.abs(theta - m.phase_offsets).max() < 1e-6
    # A limit below the phase errors the loop needs cannot pull the oscillators together.
    stuck = m.integrate(t_end, points=100, limit=worst / 4)
    assert spread(stuck)[-1] > 0.1 * spread(stuck)[0]


def test_a_tuning_range_bounds_each_oscillator_and_an_outlier_breaks_the_lock():
    # Section 2.6: "a faulty oscillator could prevent global synchronization by forcing a node
    # to transmit at a speed that is outside of the tuning range of the other nodes".
    m = NETWORKS["hypercube64"]
    ppm = pll.RAD_PER_PPM
    t_end = 24 * m.time_constant
    wide = m.integrate(t_end, points=50, tuning=500 * ppm)  # more than the loop asks: no change
    assert np.abs(wide["frequency"] - m.integrate(t_end, points=50)["frequency"]).max().max() < 1
    omega_i = m.omega_i.copy()
    omega_i[0] *= 1 + 1000e-6  # node 0 a thousand ppm fast
    faulty = pll.DistributedPLL(m.a, omega_i, m.K)
    free = faulty.integrate(t_end, points=50)
    bound = faulty.integrate(t_end, points=50, tuning=200 * ppm)
    assert spread(free)[-1] < 1e-3 * ppm  # unbounded control pulls everyone to equation 8
    assert spread(bound)[-1] > 500 * ppm  # the outlier cannot come down far enough
    move = (bound["frequency"] - omega_i).abs().to_numpy()
    assert move.max() <= 200 * ppm * (1 + 1e-9) and move[-1, 0] > 199 * ppm  # node 0 at its limit


def test_channels_and_delays_from_a_configuration():
    edges = [0, 1, 1, 1, 2, 3, 2, 0, 2, 2, 3, 1, 3, 1, 4, 3, 0, 7]  # (a, b, delay)
    cfg = ls.Config().with_(family="sconnect", kind="graph", edges=edges, max_ports=4)
    want = np.zeros((4, 4))
    for a, b, delay in zip(edges[0::3], edges[1::3], edges[2::3]):
        want[a, b] = want[b, a] = delay
    for dual in (False, True):  # a dual-TIC node is one oscillator: still 4 nodes
        a, delay = pll.channels(cfg.with_(dual_tic=dual))
        assert np.array_equal(a, (want > 0).astype(float))
        assert np.array_equal(delay, want)
    m = pll.model(cfg, 2 * np.pi * pll.TIC_CLOCK_HZ, K=1e3, phase_per_cycle=2 * np.pi)
    assert np.array_equal(m.d, 2 * np.pi * want)
    assert m.omega - m.omega_i[0] == pytest.approx(1e3 * 2 * np.pi * want.sum() / 4)
    a, delay = pll.channels(ls.Config().with_(kind="torus", radix=[4, 4], dim_link_delay=[1, 3]))
    assert a.sum(axis=1).tolist() == [4] * 16 and delay[0, 1] == 1 and delay[0, 4] == 3
    a, _ = pll.channels(CONFIGS / "sconnect_cluster4.toml")
    assert np.array_equal(a, 1 - np.eye(4))


def test_free_running_drift_is_the_open_loop_fifo_rate():
    m = pll.model(ring(4), 2 * np.pi * np.array([1e6, 1e6 + 10, 1e6, 1e6 - 5]), K=1.0)
    drift = m.free_running_drift().set_index(["i", "j"]).fifo_words_per_s
    assert drift[(0, 1)] == pytest.approx(10) and drift[(1, 0)] == pytest.approx(-10)
    assert drift[(0, 3)] == pytest.approx(-5)



def test_an_open_loop_runs_free_and_its_fifos_slip_a_word_per_cycle_gained():
    # Node 1 runs 10 Hz fast and node 3 5 Hz slow: with the loop open, channel 1 -> 0 gains 10
    # words a second (overflows) and 3 -> 0 loses 5 (underflows); the locked loop slips none.
    m = pll.model(ring(4), 2 * np.pi * np.array([1e6, 1e6 + 10, 1e6, 1e6 - 5]), K=1e3)
    locked = m.analytic([0.0, 1.0], phi0=m.phase_offsets)
    assert (m.fifo_slips(locked).slips == 0).all()
    opened = m.open_loop([0.0, 0.25, 2.0], phi0=m.phase_offsets)
    assert np.allclose(opened["frequency"].to_numpy(), m.omega_i)
    slips = m.fifo_slips(opened).set_index(["i", "j"]).slips
    drift = m.free_running_drift().set_index(["i", "j"]).fifo_words_per_s
    assert slips[(0, 1)] == 20 and slips[(1, 0)] == -20 and slips[(0, 3)] == -10
    assert (np.abs(slips - 2.0 * drift) <= 1).all()  # whole words of what drifted in 2 s
    read = m.offsets_from_slips(m.fifo_slips(opened), 2.0) / (2 * np.pi)  # Hz off the mean
    assert np.allclose(read, np.array([0, 10, 0, -5]) - 1.25, atol=0.5)

def test_bad_input_is_refused_by_name():
    two_rings = np.zeros((8, 8))
    two_rings[:4, :4], two_rings[4:, 4:] = ring(4), ring(4)
    with pytest.raises(ValueError, match=r"^a: a disconnected topology \(8 nodes; 4 cannot"):
        pll.model(two_rings, 1.0, K=1.0)
    with pytest.raises(ValueError, match=r"K = -2\.0: allowed a finite loop gain"):
        pll.model(ring(4), 1.0, K=-2.0)
    with pytest.raises(ValueError, match=r"K = 0: allowed"):
        pll.model(ring(4), 1.0, K=0)
    with pytest.raises(ValueError, match=r"omega_i of shape \(3,\): allowed .* shape \(4,\)"):
        pll.model(ring(4), np.ones(3), K=1.0)
    with pytest.raises(ValueError, match=r"d of shape \(4, 3\)"):
        pll.model(ring(4), 1.0, K=1.0, d=np.zeros((4, 3)))
    with pytest.raises(ValueError, match=r"phi0 of shape \(2,\)"):
        pll.model(ring(4), 1.0, K=1.0).integrate(1.0, phi0=[0, 0])
    with pytest.raises(ValueError, match=r"a of shape \(4, 3\)"):
        pll.model(np.ones((4, 3)), 1.0, K=1.0)
    one_way = ring(4)
    one_way[0, 1] = 0
    with pytest.raises(ValueError, match=r"a\[0, 1\] = 0 but a\[1, 0\] = 1: allowed a symm"):
        pll.model(one_way, 1.0, K=1.0)
    with pytest.raises(ValueError, match=r"limit = -1: allowed None"):
        pll.model(ring(4), 1.0, K=1.0).integrate(1.0, limit=-1)
    with pytest.raises(ValueError, match=r"tuning = 0: allowed None \(unbounded\)"):
        pll.model(ring(4), 1.0, K=1.0).integrate(1.0, tuning=0)
