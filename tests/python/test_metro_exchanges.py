"""metro.exchanges (bindings/lockstep/metro/exchanges.py): a read's connection carries k
request/reply exchanges. On configs/metro_figure3.toml (20-word requests behind one route word,
4 clocks a way) a lone read of a 5-word reply after 10 clocks of fetching takes 45 clocks from
creation, and each exchange after the first adds exactly the open path's turn-around, 44 clocks:
20 request words and the TURN, a path (4), the acknowledgement (1), 10 of DATA-IDLE, the 5
reply words and their TURN, a path back (4); the fresh read's route word is all its setup
costs."""

import numpy as np
import pytest

import lockstep as ls
from lockstep.metro import exchanges as ex

FRESH, TURN_AROUND = 45, 20 + 4 + 1 + 10 + 5 + 4


@pytest.mark.parametrize("k", [1, 2, 4])
def test_each_added_exchange_costs_the_open_paths_turn_around(k):
    got = ex.lone_read_clocks(k)
    assert got == {"latency": FRESH + (k - 1) * TURN_AROUND, "attempts": 1.0, "exchanges": k}


def test_header_words_are_the_only_setup_an_exchange_saves():
    # metro.hw = 2: each of the 3 routers consumes 2 header words; an added exchange sends none.
    one, three = (ex.lone_read_clocks(k, **{"metro.hw": 2})["latency"] for k in (1, 3))
    assert one == FRESH - 1 + 6
    assert (three - one) / 2 == TURN_AROUND


def test_the_ledger_measure():
    m = ex.exchanges_one_connection(quick=True)
    assert m.value == pytest.approx(TURN_AROUND / FRESH)
    assert "per added exchange 44, 44" in m.detail and "(1 and 6)" in m.detail


def test_under_load_every_read_makes_all_its_exchanges_on_one_connection():
    # 3 exchanges a read at 0.2 words per endpoint per clock, a word in 1,000 corrupted on each
    # wire: measured 472 reads, 2.5 attempts each, 2,126 good exchanges (2026-11-29).
    cfg = ex._reads(3, **{"metro.word_error_rate": 0.001, "run.warmup": 300,
                          "run.measure": 3000, "debug": True})
    sim = ls.Simulator(cfg.with_(offered=0.2))
    r = sim.run()
    assert not isinstance(r, list)
    assert r.lost == 0 and r.packets > 300 and r.bad_replies > 0 and not r.saturated
    # Every exchange's words, once a read: a read whose later reply fails is retried from its
    # first exchange, and its good replies before the failure come back again (accepted was
    # 0.207 against offered 0.184 when each good reply counted).
    assert r.accepted == pytest.approx(r.offered, rel=0.02)
    assert r.one_way_mean == 24  # the first request's: 20 words behind the route word, 3 stages
    acked, done = sim.state("messages_acked").ravel(), sim.state("exchanges_done").ravel()
    started = sim.state("messages_started").ravel()
    assert (started - acked <= 1).all()
    assert (done >= 3 * acked).all()  # delivered only after 3 good replies in one attempt
    assert done.sum() > 3 * acked.sum()  # failed attempts' good exchanges: retried from the first
    assert r.exchanges_completed == done.sum()


@pytest.mark.parametrize("k", [1, 3])
def test_the_offered_result_counts_every_word_a_read_carries(k):
    # traffic.offered counts a read's request and reply words, every exchange's; the result
    # `offered` counts the same from the reads made (it counted only the first request's
    # words: a third of accepted at k = 3, 0.95 of it at k = 1).
    r = ls.simulate(ex._reads(k, **{"run.warmup": 300, "run.measure": 3000}).with_(offered=0.1))
    assert not isinstance(r, list) and not r.saturated
    assert r.offered == pytest.approx(0.1, rel=0.1)
    assert r.offered == pytest.approx(r.accepted, rel=0.05)


def test_under_load_measure_is_finite():
    m = ex.exchanges_under_load(quick=True)
    assert np.isfinite(m.value) and 0 < m.value < 1.5, m.detail


def test_one_exchange_adds_no_state_and_writes_are_refused_more():
    sim = ls.Simulator(ex._reads(1))
    assert "exchanges_done" not in sim.state_names()
    assert "exchanges_done" in ls.Simulator(ex._reads(2)).state_names()
    cfg = ls.load_config(ex.CONFIGS / "metro_figure3.toml")
    with pytest.raises(ValueError, match=r"metro.exchanges = 2: allowed only 1 without "
                                         r"traffic.request_reply"):
        cfg.with_(**{"metro.exchanges": 2})
    with pytest.raises(ValueError, match=r"metro.exchanges"):
        cfg.with_(**{"traffic.request_reply": True, "metro.exchanges": 0})
