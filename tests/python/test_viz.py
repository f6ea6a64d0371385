"""ls.viz and the engine's read-only views it draws from: the flits in the VC buffers
(buffer_*), the VC behind each switch grant (sa_grant_vc) and the topology (peer, port_node)."""

import re
import shutil

import matplotlib
import numpy as np
import pandas as pd
import pytest

import lockstep as ls
from conftest import REPO, packet_runs, wait_for
from lockstep import viz

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

NO_FLIT = 0xFFFFFFFF  # an empty buffer slot in the buffer_* arrays
HEAD, TAIL = 1, 2  # buffer_meta bits


def busy_mesh(tiny):
    """The tiny 4x4 mesh with 4-flit packets at a load that keeps buffers half full."""
    return ls.Simulator(tiny.with_(offered=0.45, packet_size=4), backend="cpu")


def test_buffer_arrays_agree_with_occupancy_and_hold_packets_in_order(tiny):
    sim = busy_mesh(tiny).step(300)
    occ = sim.occupancy
    arrays = {f: sim.state(f"buffer_{f}") for f in ["src", "seq", "dest", "ctime", "itime", "meta"]}
    depth = tiny.get("vc_depth")
    assert all(a.shape == (*occ.shape, depth) and a.dtype == np.uint32 for a in arrays.values())
    held = np.arange(depth) < occ[..., None]
    assert held.sum() > 50, "at 0.45 flits/node/cycle the buffers hold flits after 300 cycles"
    for a in arrays.values():  # flits from the front, the sentinel after them
        assert (a[~held] == NO_FLIT).all()
    assert (arrays["meta"][held] != NO_FLIT).all() and (arrays["dest"][held] < 16).all()
    whole = 0
    for r, p, v in zip(*np.nonzero(occ)):
        n = occ[r, p, v]
        packet = list(zip(arrays["src"][r, p, v, :n], arrays["seq"][r, p, v, :n]))
        flags = arrays["meta"][r, p, v, :n] & (HEAD | TAIL)
        for s, e in packet_runs(packet, flags, f"router {r} port {p} vc {v}"):
            if flags[s] & HEAD and flags[e] & TAIL:
                whole += 1
                assert e - s + 1 == 4 and flags[s] == HEAD and flags[e] == TAIL
                assert len(set(arrays["dest"][r, p, v, s:e + 1])) == 1
    assert whole > 0, "some 4-flit packets lie whole in one buffer"


def test_sa_grant_vc_names_an_active_vc_that_sent_its_front_flit(tiny):
    sim = busy_mesh(tiny).step(200)
    seen = 0
    for _ in range(20):
        before = {n: sim.state(n) for n in ["occupancy", "ivc_state", "out_port", "buffer_seq"]}
        sim.step()
        grant, vc = sim.grants, sim.state("sa_grant_vc")
        assert np.array_equal(grant < 0, vc < 0)
        for r, o in zip(*np.nonzero(grant >= 0)):
            p, v = grant[r, o], vc[r, o]
            assert before["ivc_state"][r, p, v] == 2 and before["occupancy"][r, p, v] > 0
            assert before["out_port"][r, p, v] == o
            seen += 1
    assert seen > 100


def test_views_refuse_set_state(tiny):
    sim = busy_mesh(tiny).step(10)
    for name in ["buffer_src", "buffer_meta", "sa_grant_vc", "peer"]:
        with pytest.raises(ValueError, match=f'state "{name}": allowed only to read'):
            sim.set_state(name, sim.state(name))


def test_peer_and_port_node_describe_the_mesh(tiny):
    sim = ls.Simulator(tiny)
    peer, node = sim.state("peer"), sim.state("port_node")
    ports = peer.shape[1]
    assert peer.shape == node.shape == (16, 5)
    assert np.array_equal(node[:, 0], np.arange(16)) and (node[:, 1:] == -1).all()
    links = [(r, p) for r, p in zip(*np.nonzero(peer >= 0))]
    assert len(links) == 2 * 2 * 4 * 3  # 24 bidirectional links in a 4x4 mesh
    for r, p in links:  # links come in pairs, and port 1+2d faces port 2+2d
        q = peer[r, p]
        assert peer[q // ports, q % ports] == r * ports + p and (p - 1) // 2 == (q % ports - 1) // 2


# --- the router view ----------------------------------------------------------------------

# notebooks/02's ring: every node sends one 3-flit packet to the next node in cycle 0.
RING = dict(kind="torus", radix=[4], pattern="neighbor", packet_size=3, offered=3.0,
            max_packets=1, warmup=0, measure=1, threads=1)


def test_router_view_tells_the_stages_of_a_head_worked_by_hand():
    # Node 0's head is written into router 0's input port 0 in cycle 2, routed (to output
    # port 1, +x) in 3, granted output VC 1.0 in 4 and wins the switch in 5.
    h = viz.History(ls.Simulator(ls.Config().with_(**RING)))
    status = {t: viz.vc_requests(h.cycle(t), 0).set_index(["port", "vc"]).loc[(0, 0)]
              for t in range(2, 8)}
    assert status[2].status == "empty"
    assert status[3].status == "routed" and status[3].route_port == 1
    assert status[4].status == "VC won" and (status[4].out_port, status[4].out_vc) == (1, 0)
    assert [status[t].status for t in (5, 6, 7)] == ["sent"] * 3
    assert [status[t].flits for t in (5, 6, 7)] == [3, 2, 1]  # body and tail follow


def test_every_lost_request_has_its_reason(tiny):
    sim = busy_mesh(tiny.with_(vc_depth=3)).step(300)  # shallow buffers run out of credits
    h = viz.History(sim)
    seen = set()
    for t in range(300, 340):
        c = h.cycle(t)
        grant, grant_vc = c.after["sa_grant"], c.after["sa_grant_vc"]
        for r in range(16):
            req = viz.vc_requests(c, r)
            seen |= set(req.status)
            for row in req.itertuples():
                won = row.out_port is not pd.NA and (grant[r, row.out_port], grant_vc[
                    r, row.out_port]) == (row.port, row.vc)
                if row.status == "sent":
                    assert won and row.credits > 0
                elif row.status == "no credit":
                    assert row.credits == 0 and not won
                elif row.status == "lost arbitration":
                    # another request for its output port or from its input port (iSLIP may
                    # still leave both unmatched: that output's grant was accepted elsewhere)
                    assert row.credits > 0 and not won
                    rivals = req[req.status.isin(["sent", "lost arbitration"])
                                 & (req.index != row.Index)]
                    assert ((rivals.out_port == row.out_port) | (rivals.port == row.port)).any()
                elif row.status == "no VC":
                    assert c.before["ivc_state"][r, row.port, row.vc] == 1
                    assert c.after["ivc_state"][r, row.port, row.vc] == 1
    assert {"sent", "no credit", "lost arbitration", "no VC", "routed", "VC won"} <= seen


def test_zero_delays_route_allocate_and_send_in_one_cycle():
    """With routing and VC allocation in the cycle a head arrives, a head can be routed, win its
    output VC and cross the switch in one cycle: every grant is an input marked sent, and an
    input holding flits that was not granted says why (with one VC per output: routed or no VC,
    the output's VC lost to another input)."""
    xbar = ls.Config().with_(kind="crossbar", radix=[8], vcs=1, routing_delay=0,
                             vc_alloc_delay=0, offered=1.0, threads=1)
    h = viz.History(ls.Simulator(xbar))
    for t in range(100, 130):
        cycle = h.cycle(t)
        req = viz.vc_requests(cycle, 0).set_index("port")
        granted = {int(i): o for o, i in enumerate(cycle.after["sa_grant"][0]) if i >= 0}
        assert set(req.index[req["status"] == "sent"]) == set(granted)
        for port, out in granted.items():
            assert req.loc[port, "out_port"] == out
        waiting = req[(req["flits"] > 0) & (req["status"] != "sent")]
        assert set(waiting["status"]) <= {"routed", "no VC"}


def test_router_view_draws_every_vc_and_the_grants(tiny, tmp_path):
    h = viz.History(busy_mesh(tiny).step(100))
    ax = viz.router_view(h, router=5, cycle=105)
    texts = [t.get_text() for t in ax.texts]
    assert "router 5 (x=1, y=1), cycle 105" in ax.get_title(loc="left")
    assert sum(t.startswith("vc") for t in texts) == 5 * 2
    assert sum(bool(re.match(r"\d+ credits?, (free|held by in \d\.vc\d)", t))
               for t in texts) == 5 * 2  # every output VC's credits and owner
    granted = int((h.cycle(105).after["sa_grant"][5] >= 0).sum())
    assert sum(t.startswith("sent") for t in texts) == granted
    ax.figure.savefig(tmp_path / "router.png")
    with pytest.raises(ValueError, match="router 16: allowed 0 to 15"):
        viz.router_view(h, router=16)
    plt.close("all")


# --- the network view ---------------------------------------------------------------------

def test_link_use_counts_switch_grants_over_the_window(tiny):
    h = viz.History(busy_mesh(tiny).step(50))
    use = h.link_use(59, window=4)
    grants = [h.cycle(t).after["sa_grant"] >= 0 for t in range(56, 60)]
    assert np.array_equal(use, np.mean(grants, axis=0)) and use.max() > 0


@pytest.mark.parametrize("net", [dict(kind="mesh", radix=[4, 4]),
                                 dict(kind="torus", radix=[3, 3, 3]),
                                 dict(kind="crossbar", radix=[8], vcs=1)])
def test_network_view_draws_every_link(net, tmp_path):
    sim = ls.Simulator(ls.Config().with_(offered=0.4, threads=1, **net)).step(20)
    ax = viz.network_view(sim)
    links = int((sim.state("peer") >= 0).sum()) or 8  # a crossbar: its 8 ejection channels
    torus = net["kind"] == "torus"
    arrows = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation)]
    # a torus's wrap-around and z links are two strokes each: more arrows than links
    assert len(arrows) >= links and (len(arrows) > links) == torus
    assert "cycle 20" in ax.get_title()
    ax.figure.savefig(tmp_path / "network.png")
    plt.close("all")


# --- export -------------------------------------------------------------------------------

def test_exported_html_plays_offline_in_a_browser(tiny, tmp_path, browser):
    from selenium.webdriver.common.by import By

    h = viz.History(busy_mesh(tiny).step(40))
    page = viz.export(h, tmp_path / "router.html", view="router", router=5, cycles=5, dpi=50)
    html = page.read_text()
    assert "http://" not in html and "https://" not in html, "the page must open offline"
    assert html.count("data:image/png;base64,") == 5  # one embedded frame per cycle
    browser.get(page.as_uri())
    img = browser.find_element(By.CSS_SELECTOR, "img[id^=_anim_img]")
    anim = "anim" + img.get_attribute("id").removeprefix("_anim_img")
    wait_for("the player", lambda: browser.execute_script(f"return typeof {anim} === 'object'"),
             20)
    assert browser.execute_script(f"return {anim}.frames.length") == 5
    slider = browser.find_element(By.CSS_SELECTOR, "input[id^=_anim_slider]")
    button = {b.get_attribute("title"): b for b in browser.find_elements(By.TAG_NAME, "button")}
    assert {"Play", "Pause", "Next frame", "Previous frame"} <= set(button)
    first = img.get_attribute("src")
    button["Next frame"].click()
    assert slider.get_attribute("value") == "1" and img.get_attribute("src") != first
    button["Play"].click()
    wait_for("playing to the last frame", lambda: slider.get_attribute("value") == "4", 20)
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_export_for_slides(tiny, tmp_path, suffix):
    from PIL import Image

    if suffix == ".mp4" and not shutil.which("ffmpeg"):
        pytest.skip("no ffmpeg here (scripts/setup.sh installs it)")
    h = viz.History(busy_mesh(tiny).step(40))
    out = viz.export(h, tmp_path / f"net{suffix}", cycles=3, dpi=40)
    if suffix == ".gif":
        assert Image.open(out).n_frames == 3
    else:
        assert out.read_bytes()[4:8] == b"ftyp"  # an MP4 container
    with pytest.raises(ValueError, match="allowed a name ending in .html, .gif or .mp4"):
        viz.export(h, tmp_path / "net.png")


def test_network_view_draws_a_path_on_top(tmp_path):
    # The shape a packet trace takes: one row per hop, in order (node 0 > node 3 on a 2x2 mesh).
    path = pd.DataFrame(dict(src=[0] * 3, seq=[0] * 3, dest=[3] * 3, hop=[0, 1, 2],
                             router=[0, 1, 3], out_port=[1, 3, 0], arrived=[2, 7, 12]))
    sim = ls.Simulator(ls.Config().with_(kind="mesh", radix=[2, 2], threads=1))
    ax = viz.network_view(sim, path=path)
    texts = [t.get_text() for t in ax.texts]
    assert ["t=2", "t=7", "t=12"] == [t for t in texts if t.startswith("t=")]
    assert "packet 0.0: node 0 > node 3" in texts
    ax.figure.savefig(tmp_path / "path.png")
    plt.close("all")


# --- the packet tracer --------------------------------------------------------------------


def test_trace_follows_the_hand_worked_ring_packet():
    h = viz.History(ls.Simulator(ls.Config().with_(**RING)))
    df = viz.trace(h, src=0, seq=0, cycles=20)
    stages = ["router", "in_port", "arrived", "routed", "vc_allocated", "departed", "out_port",
              "tail_left"]
    assert df[stages].values.tolist() == [[0, 0, 2, 3, 4, 5, 1, 7],  # 3 flits cross in 5..7
                                          [1, 2, 7, 8, 9, 10, 0, 12]]  # switch + link: 2 cycles
    assert df["dest"].tolist() == [1, 1] and df["hop"].tolist() == [0, 1]


@pytest.mark.parametrize("link_delay", [1, 3])
def test_trace_of_an_idle_mesh_matches_zero_load_timing(link_delay, tmp_path):
    """Node 1 to node 4 of a 4x4 mesh under transpose: dimension order (x, then y) through
    routers 1, 0, 4; each router takes 4 cycles (route, VC, switch allocation, traversal), each
    link `link_delay`; the tail reaches the sink at the documented zero-load latency
    3 + 4R + L(R - 1) + (P - 1) after creation."""
    size = 2
    sim = ls.Simulator(ls.Config().with_(
        kind="mesh", radix=[4, 4], pattern="transpose", packet_size=size, offered=0.02,
        link_delay=link_delay, warmup=0, measure=1, threads=1, seed=3))
    df = viz.trace(sim, src=1, cycles=200)
    assert df["seq"].nunique() >= 2, "every packet of the source"
    for _, packet in df.groupby("seq"):
        assert packet["router"].tolist() == [1, 0, 4] and packet["out_port"].tolist()[-1] == 0
        assert (packet["routed"] == packet["arrived"] + 1).all()
        assert (packet["vc_allocated"] == packet["arrived"] + 2).all()
        assert (packet["departed"] == packet["arrived"] + 3).all()
        assert (packet["tail_left"] == packet["departed"] + size - 1).all()
        assert packet["arrived"].diff().dropna().tolist() == [4 + link_delay] * 2
        routers, last = len(packet), packet.iloc[-1]
        delivered = last["tail_left"] + 1 + 1  # switch traversal and the ejection channel
        assert delivered - last["created"] == 3 + 4 * routers + link_delay * (routers - 1) + (
            size - 1)
    ax = viz.network_view(sim, path=df[df["seq"] == df["seq"].min()])
    ax.figure.savefig(tmp_path / "path.png")
    plt.close("all")


def test_trace_numbers_hops_only_from_an_injection_it_saw(tiny):
    cfg = tiny.with_(offered=0.4, packet_size=4, debug=False)
    full = viz.trace(ls.Simulator(cfg), src=1, cycles=120, start=0)
    late = viz.trace(ls.Simulator(cfg), src=1, cycles=90, start=30)
    first = late.groupby("seq").head(1)
    assert len(first) and (first["in_port"] == 0).all() and (first["hop"] == 0).all()
    assert late["seq"].min() > full["seq"].min(), "packets injected before cycle 30 left out"
    # A packet in flight at cycle 30, followed by seq: the rest of its route, no hop numbers
    # unless its head was still in its first router, no arrival where it was already there.
    ends = full.groupby("seq")["tail_left"].max()
    starts = full.groupby("seq")["injected"].min()
    packet = int(next(s for s in ends.index if starts[s] < 30 and ends[s] > 40))
    whole = full[full["seq"] == packet].reset_index(drop=True)
    rest = viz.trace(ls.Simulator(cfg), src=1, seq=packet, cycles=90, start=30)
    assert rest["router"].tolist() == whole["router"].tolist()[-len(rest):]
    kept = whole.iloc[-len(rest):].reset_index(drop=True)
    before = kept["arrived"] < 30
    assert rest["arrived"][before].isna().all()
    assert (rest["arrived"][~before] == kept["arrived"][~before]).all()
    assert (rest["departed"].dropna() == kept["departed"][rest["departed"].notna()]).all()
    assert rest["hop"].isna().all() == (rest["router"].iloc[0] != 1)


def test_trace_refuses_a_node_outside_the_network(tiny):
    with pytest.raises(ValueError, match="src 99: allowed a node of the network, 0 to 15"):
        viz.trace(ls.Simulator(tiny), src=99)


# --- Jupyter controls ---------------------------------------------------------------------


def test_player_steps_the_simulator_as_far_as_the_user_goes(tiny):
    sim = ls.Simulator(tiny.with_(offered=0.3, debug=False))
    p = viz.player(sim, view="router", router=5)
    assert p.history.last == 0 and p.slider.value == 0 and "cycle 0" in title(p)
    assert bytes(p.image.value).startswith(b"\x89PNG")  # ipywidgets 8 holds a memoryview
    p.slider.value = 7  # the slider (or play) moves forward: the Simulator steps to it
    assert sim.cycle == 8 and p.history.last == 7 and "cycle 7" in title(p)
    shown = p.image.value
    p.slider.value = 3  # back: a recorded cycle, no stepping
    assert sim.cycle == 8 and "cycle 3" in title(p) and p.image.value != shown
    p.slider.value = p.slider.max  # the end of the slider moves on ahead of the user
    assert p.slider.max > p.slider.value and p.play.max == p.slider.max
    plt.close("all")
    with pytest.raises(ValueError, match="view 'side': allowed 'router', 'network'"):
        viz.player(sim, view="side")


def title(player) -> str:
    return " ".join(ax.get_title(loc) for ax in player.figure.axes
                    for loc in ("left", "center", "right"))


# --- S-Connect and graph topologies -------------------------------------------------------

# The 4 workstations of configs/sconnect_cluster4.toml, every TIC wired to the other three, the
# links of delays 1 to 3 cycles; node n sends to node n ^ 3 (bit complement): every message
# crosses one link, the one from router n to router n ^ 3.
CLUSTER_DELAYS = [0, 1, 1, 0, 2, 2, 0, 3, 3, 1, 2, 3, 1, 3, 2, 2, 3, 1]


def test_sconnect_link_use_counts_every_message_once_on_its_link():
    per_source = 30
    cfg = ls.Config().with_(family="sconnect", kind="graph", edges=CLUSTER_DELAYS, max_ports=4,
                            pattern="bitcomp", offered=0.4, max_packets=per_source, threads=1,
                            debug=True)
    h = viz.History(ls.Simulator(cfg))
    total = np.zeros(h.peer.shape)
    t = -1
    while h.sim.state("delivered_messages").sum() < 4 * per_source:
        t += 1
        total += h.link_use(t, window=1)
        assert t < 500, "every message delivered within 500 cycles"
    ports = h.peer.shape[1]
    for r in range(4):
        for p in range(ports):
            far = h.peer[r, p]
            expected = per_source if far >= 0 and far // ports == r ^ 3 else 0
            assert total[r, p] == expected, (r, p)
    # A sender holds each message until its acknowledgement is back, a channel delay after the
    # message arrived; nothing moves in between.
    assert h.link_use(t + 3, window=3).sum() == 0
    assert (h.family.buffered(h.cycle(t + 3).after) == 0).all(), "the pools are empty again"


@pytest.mark.parametrize("net", [dict(kind="hypercube", dimension=4, max_ports=4),
                                 dict(kind="random_regular", nodes=12, degree=3, max_ports=3)])
def test_network_view_draws_an_sconnect_graph(net, tmp_path):
    sim = ls.Simulator(ls.Config().with_(family="sconnect", offered=0.5, threads=1, **net))
    h = viz.History(sim.step(30))
    ax = viz.network_view(h, cycle=39, window=10)
    links = int((h.peer >= 0).sum())
    arrows = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation)]
    assert len(arrows) == links, "one arrow per direction of every link"
    coloured = [a for a in arrows if a.arrow_patch.get_edgecolor()[:3] != matplotlib.colors.
                to_rgb("#d0d0d0")]
    used = int((h.link_use(39, 10)[h.peer >= 0] > 0).sum())
    assert used > 0 and len(coloured) == used, "links that sent messages are coloured"
    title = ax.get_title()
    assert "cycle 39" in title and ("4-cube (16 routers)" in title
                                    or "random 3-regular graph of 12 routers" in title)
    labels = [a.get_ylabel() for a in ax.figure.axes]  # the colour bars'
    assert any("messages/cycle" in t for t in labels) and "messages held by the router" in labels
    ax.figure.savefig(tmp_path / "graph.png")
    plt.close("all")


def test_sconnect_router_view_shows_the_pool(tmp_path):
    cfg = ls.load_config(REPO / "configs" / "sconnect_hypercube64.toml").with_(offered=0.7,
                                                                               threads=1)
    h = viz.History(ls.Simulator(cfg).step(100))
    ax = viz.router_view(h, router=5, cycle=105)
    held = int(h.family.buffered(h.cycle(105).after)[5])
    stored = int((h.cycle(105).after["buf_state"][5] == 2).sum())  # sent, in the channels' stores
    texts = [t.get_text() for t in ax.texts]
    assert 0 < stored <= held
    assert (f"buffer pool: {held - stored} of 10 held, {stored} sent in the channels' stores"
            in " ".join(texts))
    assert sum(t.startswith(">") for t in texts) == held  # every held buffer's destination
    assert "S-Connect router 5, cycle 105" in ax.get_title(loc="left")
    ax.figure.savefig(tmp_path / "router.png")
    plt.close("all")


def test_sconnect_router_view_shows_a_quad_arriving(tmp_path):
    # One quad-message each way over a channel of delay 2 (kernels/sconnect/quad.hpp): in cycle
    # 4 router 1 holds the head and part 1 of router 0's quad and 2 buffers reserved for the
    # rest, each drawn as such; its own quad's parts wait, sent or not, labelled q0..q3.
    cfg = ls.Config().with_(family="sconnect", kind="mesh", radix=[2], link_delay=2,
                            pattern="bitcomp", offered=4.0, packet_size=4, max_packets=1,
                            priorities=1, reserve=4, buffers=16, threads=1)
    h = viz.History(ls.Simulator(cfg))
    ax = viz.router_view(h, router=1, cycle=4)
    state = h.cycle(4).after["buf_state"][1]
    reserved = int((state == 5).sum())
    assert reserved == 2
    face = {tuple(np.round(p.get_facecolor(), 3)) for p in ax.patches}
    assert tuple(np.round(matplotlib.colors.to_rgba("#e5f5e0"), 3)) in face  # reserved
    texts = [t.get_text() for t in ax.texts]
    parts = [t for t in texts if t.startswith(">") and " q" in t]
    assert len(parts) == int((state != 0).sum()) - reserved  # every stored part labelled
    assert {t.split(" q")[1] for t in parts} >= {"0", "1"}
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "quad part" in legend and "reserved for a part" in legend
    ax.figure.savefig(tmp_path / "quad.png")
    plt.close("all")
