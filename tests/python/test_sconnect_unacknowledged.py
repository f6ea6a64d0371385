"""Where an S-Connect message waits for its acknowledgement (sconnect.unacknowledged): in its pool
buffer, locked (the TIC's channel module, section 3.2), or in its channel's store, outside the pool
(Figure 4's step 3: the pool saves the unsent messages). Figure 5's hypercube past its knee,
cycle by cycle: the pool's books, its size, and the stores beyond it."""

import numpy as np
import pytest
from conftest import REPO

import lockstep as ls

FREE, SENT = 0, 2  # buf_state (kernels/sconnect/sconnect_state.hpp)
POOL = 10  # configs/sconnect_hypercube64.toml: one buffer a channel plus 4 spares


def held_each_cycle(unacknowledged: str, cycles: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """[cycles, routers] buffers held in all, and those holding unsent messages, offered 1.0
    (past the knee: refusals and Figure 4's excess); each cycle, the classes' counts must add up
    to the unsent messages (with the stores apart) or to all held (the TIC's reading). The layout
    has the pool's buffers, and with the stores apart 2 x delay for each of the 6 channels and
    the 2 reserved for each of the 3 classes."""
    cfg = ls.load_config(REPO / "configs" / "sconnect_hypercube64.toml").with_(
        assignment="near_optimal", offered=1.0, unacknowledged=unacknowledged, threads=1)
    sim = ls.Simulator(cfg)
    sim.step(200)
    layout = sim.state("buf_state").shape[-1]
    assert layout == (POOL if unacknowledged == "pool" else POOL + 2 * 6 + 2 * 3)
    held, unsent = [], []
    for _ in range(cycles):
        sim.step(1)
        state = sim.state("buf_state")
        held.append((state != FREE).sum(axis=-1))
        unsent.append(((state != FREE) & (state != SENT)).sum(axis=-1))
        counted = unsent[-1] if unacknowledged == "channel" else held[-1]
        assert (sim.state("class_used").sum(axis=(-1, -2)) == counted).all()
    return np.array(held), np.array(unsent)


def test_the_pool_holds_the_unsent_messages_and_the_stores_the_sent_ones():
    held, unsent = held_each_cycle("channel")
    assert unsent.max() <= POOL
    assert held.max() > POOL  # sent messages beyond the pool, waiting for acknowledgements
    assert (held > unsent).mean() > 0.5  # most router-cycles have some in the stores


def test_the_tics_reading_keeps_sent_messages_in_the_pool():
    held, unsent = held_each_cycle("pool")
    assert held.shape[1] == 64 and held.max() <= POOL
    assert (held > unsent).mean() > 0.5  # sent messages locked in it


def test_figure_5s_network_past_its_knee_keeps_its_throughput_with_the_stores_apart():
    # The ledger's sconnect.misroutes_1pct and tic_lower_efficiency_pool10 measure this in full.
    cfg = ls.load_config(REPO / "configs" / "sconnect_hypercube64.toml").with_(
        assignment="near_optimal", offered=1.0, warmup=500, measure=1000, drain=500, threads=1)
    apart, locked = (ls.simulate(cfg, unacknowledged=u) for u in ("channel", "pool"))
    assert apart.accepted > 0.9 > locked.accepted
    assert apart.reject_fraction < 0.1 < locked.reject_fraction


@pytest.mark.parametrize("keys, allowed", [
    (dict(buffers=64), "sconnect.buffers (64) + 2 x channels (6) x the longest channel delay"),
    (dict(packet_size=4, buffers=24, reserve=4), "allowed only with messages of one slot"),
])
def test_stores_that_do_not_fit_are_refused_by_name(keys, allowed):
    cfg = ls.load_config(REPO / "configs" / "sconnect_hypercube64.toml")
    with pytest.raises(ValueError, match='sconnect.unacknowledged = "channel"') as err:
        ls.simulate(cfg.with_(**keys))
    assert allowed in str(err.value)
