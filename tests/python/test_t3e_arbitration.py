"""The T3E router's arbitration (paper section 7), read clock by clock from the named state
arrays by lockstep.t3e.arbitration: each rule holds on a saturated 4x4x4 and the counts that
would show it broken are large, so no test passes for want of contests. One quick run (about
10 s) serves every test."""

import pytest

from lockstep.t3e import arbitration as arb


@pytest.fixture(scope="module")
def n() -> dict[str, int]:
    return arb._tally(True).n


def test_the_record_reads_the_state_without_contradiction(n):
    # Every flit followed from clock 0: buffers, ejections and departures agree with it, every
    # head left on the deterministic or adaptive VC its rebuilt route asked for, and every
    # judged router-clock had its packets known.
    assert {k: v for k, v in n.items() if k.startswith("tracking:") and v} == {}
    assert n["head flows checked"] > 10_000
    assert n.get("head left where it did not ask", 0) == 0
    assert n.get("unknown", 0) == 0
    assert arb.broken_rules(True) == ()


def test_an_unstarted_adaptive_vc_never_beats_a_deterministic_one(n):
    m = arb.adaptive_priority(True)
    assert m.value == 0
    assert n["unstarted adaptive vs deterministic"] > 1_000
    # Not for want of trying: alone, the adaptive VC always takes the output ...
    assert n["unstarted adaptive alone won"] == n["unstarted adaptive alone"] > 1_000
    # ... and once its packet has started it is an equal: it keeps an output it holds and
    # wins round-robin contests.
    assert (n["started adaptive holding kept"]
            == n["started adaptive holding against deterministic"] > 100)
    assert n["started adaptive won"] > 0
    assert n.get("output round-robin violations", 0) == 0 < n["output round-robin decisive"]
    assert "0 of " in m.detail


def test_an_input_selects_its_vcs_round_robin(n):
    assert arb.input_round_robin(True).value == 0
    assert n["selections"] > 10_000
    # Fixed priority (the lowest VC holding flits) would have chosen otherwise this often.
    assert n["selections skipping a lower VC"] > 1_000


def test_an_input_keeps_the_right_to_request_until_one_of_the_four_events(n):
    assert arb.input_keeps_right(True).value == 0
    assert n["right kept while holding"] > 1_000
    for why in ("bubbled", "completed", "failed to win"):  # blocked needs longer packets
        assert n[f"lost: {why}"] > 100, why


def test_an_adaptive_output_vc_goes_round_robin(n):
    assert arb.adaptive_round_robin(True).value == 0
    assert n["adaptive grants seen"] > 1_000
    assert n["adaptive grants decisive"] > 100
    assert n["adaptive grants decisive, not the lowest"] > 10


def test_a_deterministic_output_vc_remembers_its_requests(n):
    assert arb.remembered_requests(True).value > 100
    assert n.get("deterministic round-robin violations", 0) == 0
    assert n["deterministic grants decisive"] > 1_000


@pytest.mark.parametrize("keys", [dict(packet_mix=[1, 1, 0, 0]), dict(barrier="barrier"),
                                  dict(adaptive_hops="taken"), dict(lut_mode="computed")])
def test_what_the_record_cannot_read_is_refused(keys):
    with pytest.raises(ValueError, match="arbitration: allowed"):
        arb.record(arb.saturated(**keys), warmup=1, clocks=1)
