"""S-Connect's Figure 1, the ideal n x n router (ls.sconnect.ideal_router): the textbook limits
(head-of-line blocking at Karol et al.'s 0.6184 for n = 8, falling towards 2 - sqrt(2); the
exponential closed network's n / (2n - 1); output queueing's exact latencies, by two
independent implementations), the paper's claims as read (both structures saturate at 75% with
fixed and 64% with exponential lengths, the pool with the lower latency), determinism by seed
and refused arguments."""

import numpy as np
import pandas as pd
import pytest

import lockstep as ls

ir = ls.sconnect.ideal_router


def test_fixed_lengths_saturate_at_the_head_of_line_limit():
    sat = {n: ir.saturation("crossbar", "fixed", n=n) for n in (4, 8, 16)}
    for n in (4, 8):
        assert sat[n] == pytest.approx(ir.KAROL_SATURATION[n], rel=0.02)
    assert sat[4] > sat[8] > sat[16] > ir.KAROL_SATURATION[float("inf")]  # to 2 - sqrt(2)
    assert sat[16] == pytest.approx(2 - np.sqrt(2), rel=0.04)


def test_exponential_lengths_lower_the_head_of_line_limit():
    # A closed network of n ./M/1 queues: every state equally likely, busy m / (m + n - 1).
    exp = ir.saturation("crossbar", "exponential")
    assert exp == pytest.approx(8 / 15, rel=0.02) and ir.exponential_saturation(8) == 8 / 15
    assert exp < 0.9 * ir.saturation("crossbar", "fixed")
    pool = ir.saturation("pool", "exponential", buffers=16)  # the same network, 16 messages
    assert pool == pytest.approx(ir.exponential_saturation(8, 16), rel=0.02)


def test_accepted_follows_offered_up_to_saturation_then_stays_there():
    df = ir.simulate("crossbar", "fixed", [0.5, 0.9], replicas=2, duration=3000)
    assert df.accepted[0] == pytest.approx(0.5, rel=0.02)
    assert df.accepted[1] == pytest.approx(ir.KAROL_SATURATION[8], rel=0.03)
    assert df.latency_mean[1] > 50 * df.latency_mean[0]  # the FIFOs grow without bound


@pytest.mark.parametrize("lengths", ["fixed", "exponential"])
def test_output_queueing_latency_is_the_exact_one_up_to_saturation_at_1(lengths):
    # The unlimited pool (Lindley's recursion) against Karol et al.'s eq. 9 or M/M/1.
    loads = [0.2, 0.6, 0.9] if lengths == "fixed" else [0.2, 0.6, 0.8]  # M/M/1 settles slowly
    df = ir.simulate("pool", lengths, loads, replicas=16, duration=3000, seed=3)
    exact = [ir.output_queue_latency(x, 8, lengths) for x in loads]
    assert np.allclose(df.latency_mean, exact, rtol=0.03)
    assert np.allclose(df.accepted, loads, rtol=0.02)
    assert ir.saturation("pool", lengths) == 1.0
    # The step simulation with a pool too large to fill agrees: a second implementation.
    load = 0.6 if lengths == "fixed" else 0.3  # M/M/1's latency varies more
    step = ir.simulate("pool", lengths, load, buffers=48, replicas=4,
                       duration=3000 if lengths == "fixed" else 800)
    assert step.latency_mean[0] == pytest.approx(ir.output_queue_latency(load, 8, lengths),
                                                 rel=0.05)
    assert ir.saturation("pool", "fixed", buffers=48) > 0.9  # towards output queueing's 1


def test_figure1_both_structures_saturate_at_75_and_64_percent():
    sat = {(s, n): ir.saturation(s, n, **ir.figure1(s)) for s in ir.STRUCTURES
           for n in ir.LENGTHS}
    for s in ir.STRUCTURES:
        assert sat[s, "fixed"] == pytest.approx(0.75, abs=0.012)
        assert sat[s, "exponential"] == pytest.approx(0.64, abs=0.012)
        assert sat[s, "fixed"] > sat[s, "exponential"] + 0.08  # "fixed length ... higher"
    for n in ir.LENGTHS:  # "the saturation throughput for either structure is the same"
        assert sat["crossbar", n] == pytest.approx(sat["pool", n], rel=0.02)


@pytest.mark.parametrize("lengths", ["fixed", "exponential"])
def test_figure1_the_pool_has_the_lower_latency(lengths):
    loads = [0.3, 0.5, 0.65] if lengths == "fixed" else [0.3, 0.5]  # below saturation
    kw = dict(duration=3000 if lengths == "fixed" else 500, replicas=2, seed=2)
    lat = {s: ir.simulate(s, lengths, loads, **ir.figure1(s), **kw).latency_mean.to_numpy()
           for s in ir.STRUCTURES}
    assert (lat["pool"] < lat["crossbar"]).all()
    assert lat["pool"][-1] < 0.9 * lat["crossbar"][-1]


def test_same_seed_same_result():
    for lengths in ir.LENGTHS:
        def run(seed):
            return ir.simulate("pool", lengths, [0.3, 0.7], buffers=8, release="start",
                               duration=100, seed=seed)
        first = run(5)
        pd.testing.assert_frame_equal(first, run(5))
        assert not first.equals(run(6))
        def sat(seed):
            return ir.saturation("crossbar", lengths, duration=100, replicas=2, seed=seed)
        assert sat(5) == sat(5) != sat(6)


def test_bimodal_lengths_without_long_messages_are_the_fixed_ones():
    # No long message drawn: the same draws, the same run, as fixed lengths.
    kw = dict(loads=[0.3, 0.7], duration=200, seed=3)
    pd.testing.assert_frame_equal(ir.simulate("crossbar", "fixed", **kw),
                                  ir.simulate("crossbar", "bimodal", bimodal=(1, 0.0), **kw))
    assert not ir.simulate("crossbar", "bimodal", bimodal=(4, 0.05), **kw).equals(
        ir.simulate("crossbar", "fixed", **kw))


@pytest.mark.parametrize("call, match", [
    (lambda: ir.simulate("xbar"), r"structure='xbar': allowed 'crossbar', 'pool'"),
    (lambda: ir.simulate("pool", "uniform"),
     r"lengths='uniform': allowed 'fixed', 'exponential', 'bimodal'"),
    (lambda: ir.simulate("pool", "bimodal"), r"lengths='bimodal': allowed 'fixed', 'expon"),
    (lambda: ir.simulate("crossbar", "bimodal", bimodal=(0, 0.1)), r"bimodal=\(0, 0.1\)"),
    (lambda: ir.simulate(release="later"), r"release='later': allowed 'end', 'start'"),
    (lambda: ir.simulate(loads=[0.5, 1.2]), r"loads=\[0.5, 1.2\]: allowed offered loads in "),
    (lambda: ir.simulate(loads=0), r"loads=\[0.0\]: allowed offered loads in \(0, 1\]"),
    (lambda: ir.simulate(n=0), r"n=0: allowed an integer >= 1"),
    (lambda: ir.simulate(buffers=8), r"buffers=8: allowed only None for the crossbar"),
    (lambda: ir.saturation("pool", buffers=0), r"buffers=0: allowed None \(unlimited\) or an"),
    (lambda: ir.simulate(duration=-1), r"duration=-1: allowed a time > 0"),
    (lambda: ir.simulate(duration=10, warmup=10), r"warmup=10: allowed 0 <= warmup < durat"),
    (lambda: ir.saturation(replicas=0), r"replicas=0: allowed an integer >= 1"),
    (lambda: ir.simulate(seed=-1), r"seed=-1: allowed an integer >= 0"),
    (lambda: ir.simulate(percentiles=[101]), r"percentiles=\[101\]: allowed numbers in"),
    (lambda: ir.figure1("ring"), r"structure='ring': allowed 'crossbar', 'pool'"),
])
def test_bad_arguments_are_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()
