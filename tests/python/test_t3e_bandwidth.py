"""Table 4 of the T3E paper measured (bindings/lockstep/t3e/bandwidth.py): the payload a link
sustains per traffic type, one-way and symmetrical, equals the paper's figures, which follow
from Table 3's packet lengths when a link carries a flit every clock."""
import pytest

import lockstep as ls
from lockstep.t3e import bandwidth


@pytest.fixture(scope="module")
def table():
    return bandwidth.table4(measure=2000)


def test_table4_matches_the_paper(table):
    for kind, row in table.iterrows():
        assert row["one-way MB/s"] == pytest.approx(row["one-way paper"], rel=0.01), kind
        assert row["symmetrical MB/s"] == pytest.approx(row["symmetrical paper"], rel=0.01), kind


def test_symmetrical_is_lower_as_requests_and_responses_share_the_link(table):
    assert (table["symmetrical MB/s"] < table["one-way MB/s"]).all()


def test_a_small_pe_buffer_throttles_one_way_traffic():
    # The PE's receive VC must cover the end point's credit round trip (10 + 2 + 1 clocks).
    fast = bandwidth.payload_bandwidth("vector_get", True, measure=2000)
    cfg_pe = {"t3e": {"pe_buffer_depth": 8}}
    slow = ls.simulate({
        "router": {"family": "t3e"}, "topology": {"kind": "torus", "radix": [2, 1, 1]},
        "traffic": {"pattern": "neighbor", "offered": 12.0, "sender_every": 2},
        "t3e": {"packet_type": "vector_get", **cfg_pe["t3e"]},
        "run": {"warmup": 1000, "measure": 2000, "drain": 0}})
    slow_mb = slow.accepted * 2 / 12 * 8 * bandwidth.LINK_MB_S
    assert slow_mb < 0.8 * fast


@pytest.mark.parametrize("t3e", [{"packet_type": "single_word_get"},
                                 {"packet_type": "vector_put"},
                                 {"packet_mix": [4, 1, 2, 1]}])
def test_offered_counts_request_and_response_flits(t3e):
    r = ls.simulate({"router": {"family": "t3e"}, "topology": {"kind": "torus", "radix": [4, 4, 1]},
                     "traffic": {"offered": 0.1}, "t3e": t3e,
                     "run": {"warmup": 500, "measure": 20000}})
    assert r.offered == pytest.approx(0.1, rel=0.05)
    assert r.accepted == pytest.approx(r.offered, rel=0.05)


def test_only_every_nth_node_sends():
    r = ls.simulate({"topology": {"kind": "torus", "radix": [4, 4]},
                     "traffic": {"offered": 0.2, "sender_every": 4},
                     "run": {"warmup": 500, "measure": 4000}})
    assert r.offered == pytest.approx(0.05, rel=0.1)
