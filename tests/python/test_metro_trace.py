"""lockstep.metro's trace helper (bindings/lockstep/metro/trace.py): words decoded as
kernels/metro/metro_state.hpp encodes them, and the clock-by-clock record of a 4-endpoint
network (radix 2, 2; dilation 2, 1; one port per endpoint) against timing worked out by hand:
one connection set up, turned, acknowledged and dropped; two senders to one endpoint, the
loser reclaimed fast (a DROP back at once) or in detail (held to its TURN, then a blocked
STATUS), and its retry delivered."""

import numpy as np
import pandas as pd
import pytest
from conftest import REPO

import lockstep as ls
from lockstep import metro


def word(kind, value=0, start=False):
    return kind | (16 if start else 0) | (value << 5)


def fold(words, weight=3):
    """metro.checksum's fold of 8-bit words (kernels/metro/metro_state.hpp checksum_fold)."""
    c = 0
    for w in words:
        c = (weight * c + int(w)) % 256
    return c


def tiny(reclaim="fast", senders=1, **metro_keys):
    """Endpoint 0 (and with senders=2 also endpoint 2) sends one message of 3 data words (the
    last the checksum) to endpoint 3, created in clock 0."""
    keys = {"hw": 0, "dp": 1, "vtd": 0, "width": 8, "reclaim": reclaim, **metro_keys}
    return ls.Config({
        "topology": {"kind": "multibutterfly", "radix": [2, 2], "dilation": [2, 1],
                     "endpoint_ports": 1},
        "router": {"family": "metro"},
        "metro": keys,
        "traffic": {"pattern": "hotspot", "hotspot_nodes": [3], "hotspot_fraction": 1.0,
                    "packet_size": 3, "offered": 3, "max_packets": 1,
                    "sender_every": 4 // senders},
        "run": {"warmup": 0, "measure": 100, "threads": 1},
    })


def texts(table, wire):
    rows = table[table.wire == wire]
    return list(zip(rows.cycle, rows.text))


# -- words ------------------------------------------------------------------------------------

def test_words_decode_as_the_kernel_encodes_them():
    assert metro.decode(word(1, 3, start=True)) == ("HEADER", 3, True)
    assert metro.describe(word(1, 3, start=True)) == "HEADER 3*"
    assert metro.describe(word(2, 0x5A)) == "DATA 0x5a"
    assert metro.describe(word(2, 0x5, start=True), width=8) == "DATA 0x05*"
    assert metro.describe(word(3)) == "DATA-IDLE"
    assert metro.describe(word(4)) == "TURN"
    assert metro.describe(word(5)) == "DROP"
    assert metro.describe(word(5, 2)) == "DROP blocked@1"  # fast reclamation: stage + 1
    assert metro.describe(word(6, 1)) == "STATUS s1"
    assert metro.describe(word(6, 2 | 8)) == "STATUS s2 blocked"
    assert metro.status(2 | 5 << 4 | 17 << 10) == (2, False, 17, 5)
    assert metro.describe(word(7, 0x26), width=8) == "CHECKSUM 0x26"
    assert metro.describe(word(8, 1 | 0x2A << 1)) == "ACK good"
    assert metro.describe(word(8, 0)) == "ACK bad"
    assert metro.describe(0) == "" and metro.decode(0) == ("", 0, False)
    with pytest.raises(ValueError, match="kind 9"):
        metro.describe(9)


def test_only_metro_networks():
    with pytest.raises(ValueError, match="router.family"):
        metro.Tracer(ls.Simulator(ls.Config({"topology": {"kind": "mesh", "radix": [2, 2]}})))


@pytest.mark.parametrize("name", ["metro_figure1", "metro_figure3"])
def test_network_facts_from_the_state(name):
    cfg = ls.load_config(REPO / "configs" / f"{name}.toml")
    net = metro.Network(ls.Simulator(cfg))
    # The engine's own stage of every router.
    assert net.stage.tolist() == ls.Simulator(cfg).state("stage").tolist()
    if name == "metro_figure3":
        assert (net.routers, net.endpoints, net.eports, net.slots) == (64, 64, 2, 2)
        assert np.bincount(net.stage).tolist() == [16, 16, 32]
        assert net.forward.tolist() == [8] * 32 + [4] * 32
    else:
        assert (net.routers, net.endpoints) == (24, 16) and set(net.forward) == {4}


# -- one connection ---------------------------------------------------------------------------

def test_one_connection_clock_by_clock():
    sim = ls.Simulator(tiny())
    tr = metro.Tracer(sim).step(14)
    df = tr.table
    wires = list(dict.fromkeys(df.wire))  # in the order words first used them
    assert wires[0] == "E0.in0→R0.f0" and wires[1].startswith("R0.b")
    assert wires[2].endswith("→E3.out0")
    # The stream: the route word, 2 data words and the checksum, then TURN, sent in clocks
    # 0-4; each wire (endpoint wire, router, router) one clock.
    stream = [t for _, t in texts(df, wires[0])]
    assert stream[0] == "HEADER 3*" and stream[-1] == "TURN" and len(stream) == 5
    for k, w in enumerate(wires[:3]):
        got = texts(df, w)
        assert [c for c, _ in got] == list(range(1 + k, 6 + k)), w
        assert [t for _, t in got] == stream, w
    # Back: each router's STATUS and CHECKSUM as the TURN passes, the destination's ACK and
    # its DROP; the ACK is back in clock (1 + 3 words) + 2 x (1 wire + 2 stages) = 10.
    back = [t for _, t in texts(df, "R0.f0→E0.in0")]
    assert [t.split()[0] for t in back] == ["STATUS", "CHECKSUM", "STATUS", "CHECKSUM", "ACK",
                                            "DROP"]
    assert back[0] == "STATUS s0" and back[2] == "STATUS s1" and back[4] == "ACK good"
    assert df[(df.wire == "R0.f0→E0.in0") & (df.kind == "ACK")].cycle.item() == 10
    # A router's checksum: the fold of the data it forwarded, the checksum word included, which
    # the source chose to bring the stream's to 0 (c <- 3c + word, mod 2^w).
    data = df[(df.wire == wires[0]) & (df.kind == "DATA")].value.tolist()
    checks = df[(df.wire == "R0.f0→E0.in0") & (df.kind == "CHECKSUM")].value
    assert data[2] == -3 * fold(data[:2]) % 256 and fold(data) == 0
    assert checks.tolist() == [fold(data)] * 2
    # Words arrive one wire delay after they are sent; the stream began in clock 0.
    assert (df.cycle - df.sent == 1).all() and (df.tag == 0).all()
    assert "?" not in set(df.src)
    assert sim.state("messages_acked").tolist() == [1, 0, 0, 0]
    assert metro.connections(sim).empty


@pytest.mark.parametrize("checksum,weight", [("weighted", 3), ("sum", 1)])
def test_the_checksum_word_closes_the_stream(checksum, weight):
    """metro.checksum: the source's last data word brings the stream's fold to 0 (weighted:
    c <- 3c + word; sum: the plain sum), and every router on the path reports that 0."""
    df = metro.Tracer(ls.Simulator(tiny(checksum=checksum))).step(14).table
    data = df[(df.wire == "E0.in0→R0.f0") & (df.kind == "DATA")].value.tolist()
    assert len(data) == 3 and data[2] == -weight * fold(data[:2], weight) % 256
    assert df[(df.wire == "R0.f0→E0.in0") & (df.kind == "CHECKSUM")].value.tolist() == [0, 0]
    assert df[(df.wire == "R0.f0→E0.in0") & (df.kind == "ACK")].text.tolist() == ["ACK good"]


def test_a_read_turns_the_connection_twice():
    """traffic.request_reply with reply_size 3, metro.reply_delay 2: the destination answers the
    request (its TURN there in clock 7) with ACK, two DATA-IDLE, the reply (2 words and their
    checksum) and a TURN; each router, turned a second time, returns its STATUS and the checksum
    of the reply it forwarded, now to the destination; the source checks the reply when the TURN
    reaches it (clock 16 = 10 + 2 + 3 + 1) and closes the connection the clock after."""
    sim = ls.Simulator(tiny(reply_delay=2).set("traffic.request_reply", True)
                       .set("traffic.reply_size", 3))
    df = metro.Tracer(sim).step(21).table
    back = texts(df, "R0.f0→E0.in0")
    assert [t.split()[0] for _, t in back] == ["STATUS", "CHECKSUM", "STATUS", "CHECKSUM", "ACK",
                                               "DATA-IDLE", "DATA-IDLE", "DATA", "DATA", "DATA",
                                               "TURN"]
    assert back[4] == (10, "ACK good") and back[-1] == (16, "TURN")
    reply = df[(df.wire == "R0.f0→E0.in0") & (df.kind == "DATA")].value.tolist()
    assert reply[2] == -3 * fold(reply[:2]) % 256
    to_dest = [t for c, t in texts(df, "R2.b1→E3.out0") if c > 7]
    assert to_dest[:4] == ["STATUS s1", "CHECKSUM 0x00", "STATUS s0", "CHECKSUM 0x00"]
    assert to_dest[-1] == "DROP"
    assert texts(df, "E0.in0→R0.f0")[-1] == (18, "DROP")  # sent in clock 17
    assert sim.state("messages_acked").tolist() == [1, 0, 0, 0]
    assert (sim.state("sink_mode") == 0).all() and metro.connections(sim).empty


def test_wide_table_and_source_modes():
    tr = metro.Tracer(ls.Simulator(tiny())).step(12)
    wide = tr.wide()
    assert wide.index.tolist() == list(range(12))
    assert wide.columns[-1] == "E0 source" and "E3 source" not in wide.columns
    assert wide.loc[10, "R0.f0→E0.in0"] == "ACK good"
    assert wide["E0 source"].tolist() == ["sending"] * 4 + ["waiting"] * 7 + ["idle"]
    assert (wide.loc[0, wide.columns[:-1]] == "").all()
    only = tr.wide(sources=False, wires=["R0.f0→E0.in0"])
    assert only.columns.tolist() == ["R0.f0→E0.in0"] and only.loc[11].item() == "DROP"


def test_path_and_connections_mid_connection():
    sim = ls.Simulator(tiny())
    metro.Tracer(sim).step(5)
    p = metro.path(sim, 0)
    assert p.stage.tolist() == [0, 1] and p.router.tolist()[0] == 0
    assert (p["mode"] == "open").all() and p.attrs["dest"] == 3
    c = metro.connections(sim)
    assert len(c) == 2 and set(c.flow) == {"forward"}
    assert metro.path(sim, 1).empty and metro.path(sim, 1).attrs["dest"] is None
    with pytest.raises(ValueError, match="node 4"):
        metro.path(sim, 4)


def test_header_words_consumed_and_data_idle_filling_the_turn():
    # hw = 1: each router eats a header word and starts the next router on the word after it;
    # vtd = 1: a stage is 2 clocks, and the turned routers fill the wait with DATA-IDLE.
    sim = ls.Simulator(tiny(hw=1, vtd=1))
    df = metro.Tracer(sim).step(20).table
    assert (df[df.src == "E0"].kind == "HEADER").sum() == 2
    at3 = df[df.dst == "E3"]
    assert "HEADER" not in set(at3.kind) and at3.text.iloc[0].endswith("*")
    assert "DATA-IDLE" in set(df[df.dst == "E0"].kind)
    # ACK back in clock (2 header + 3 data words) + 2 x (1 + 2 stages x 2 clocks) = 15.
    assert df[(df.dst == "E0") & (df.kind == "ACK")].cycle.item() == 15


# -- blocking ---------------------------------------------------------------------------------

def loser_of(df):
    blocked = df[df.dst.isin(["E0", "E2"]) & df.text.str.contains("blocked")]
    return blocked.dst.iloc[0]


def test_fast_reclamation_drops_at_once_and_the_retry_is_delivered():
    sim = ls.Simulator(tiny("fast", senders=2))
    df = metro.Tracer(sim).step(30).table
    loser = loser_of(df)
    winner = "E2" if loser == "E0" else "E0"
    to_loser = df[df.dst == loser]
    first = to_loser.iloc[0]
    assert first.text == "DROP blocked@1"  # blocked in stage 1, before anything else
    # The loser retries in the clock the drop reaches it: a new start word one clock later.
    starts = df[(df.src == loser) & df.start]
    assert starts.cycle.iloc[1] == first.cycle + 1
    # The winner is served as if alone; the loser's last attempt is acknowledged.
    assert df[(df.dst == winner) & (df.kind == "ACK")].cycle.item() == 10
    assert (df[df.dst == loser].kind == "ACK").sum() == 1
    assert sim.state("messages_acked").tolist() == [1, 0, 1, 0]
    assert len(starts) >= 2


def test_detailed_reclamation_holds_the_path_until_the_turn():
    sim = ls.Simulator(tiny("detailed", senders=2))
    tr = metro.Tracer(sim).step(5)
    held = pd.concat([metro.path(sim, n) for n in (0, 2)])
    assert "blocked" in set(held["mode"])  # the loser's path ends in a held, blocked port
    df = tr.step(25).table
    loser = loser_of(df)
    back = [t for _, t in texts(df, df[df.dst == loser].wire.iloc[0])]
    assert back[:4] == ["STATUS s0", "CHECKSUM " + back[1].split()[1], "STATUS s1 blocked",
                        "CHECKSUM 0x00"]  # the blocked router forwarded no data
    assert back[4] == "DROP"
    drop = df[(df.dst == loser) & (df.kind == "DROP")].cycle.iloc[0]
    assert df[(df.src == loser) & df.start].cycle.iloc[1] == drop + 1
    assert sim.state("messages_acked").tolist() == [1, 0, 1, 0]


def test_a_batch_instance_and_a_trace_begun_mid_connection():
    sims = ls.Simulator([tiny(), tiny().with_(seed=2)])
    sims.step(6)  # E0's words are on the way: its entering wire is known from the crossbars
    df = metro.Tracer(sims, instance=1).step(8).table
    assert "?" not in set(df.src)
    assert df[(df.dst == "E0") & (df.kind == "ACK")].cycle.item() == 10
