"""ls.viz and the engine's read-only views it draws from: the flits in the VC buffers
(buffer_*), the VC behind each switch grant (sa_grant_vc) and the topology (peer, port_node)."""

import numpy as np
import pytest

import lockstep as ls

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
        # Runs of one packet each, in queue order: a head only at a run's start (the first
        # run's head may have left), a tail only at a run's end (the last's may be on its way).
        starts = [k for k in range(n) if k == 0 or packet[k] != packet[k - 1]]
        ends = [k - 1 for k in starts[1:]] + [n - 1]
        assert len(set(packet)) == len(starts), f"a packet split in router {r} port {p} vc {v}"
        for s, e in zip(starts, ends):
            assert all(flags[k] & HEAD == 0 for k in range(s + 1, e + 1))
            assert all(flags[k] & TAIL == 0 for k in range(s, e))
            assert s == 0 or flags[s] & HEAD, "a packet behind another starts with its head"
            assert e == n - 1 or flags[e] & TAIL, "a packet before another ends with its tail"
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
