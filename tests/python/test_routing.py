"""ls.routing: the engine's routing tables for any topology, and the checker of any table; the
new topology keys through Config and the command line."""

import numpy as np
import pytest
from conftest import REPO

import lockstep as ls

HYPERCUBE = {"topology": {"kind": "hypercube", "dimension": 6, "max_ports": 6}}


def follow(t: ls.routing.RoutingTable, src: int, dest: int, pick=min) -> list[int]:
    """The routers a message passes from router src to node dest, taking `pick` of the ports."""
    ports = t.peer.shape[1]
    path = [src]
    while path[-1] != t.node_router[dest]:
        mask = int(t.port_mask[path[-1], dest])
        assert mask, f"router {path[-1]} has no port to {dest}"
        port = pick(p for p in range(1, 32) if mask >> p & 1)
        path.append(int(t.peer[path[-1], port]) // ports)
        assert len(path) <= t.peer.shape[0], "a loop"
    return path


def test_hypercube_table_is_minimal_complete_and_deadlock_free():
    t = ls.routing.table(HYPERCUBE)
    assert t.port_mask.shape == t.vc.shape == t.dist.shape == (64, 64)
    assert (t.port_mask.dtype, t.vc.dtype) == (np.uint32, np.uint8)
    assert t.stats["minimal"] == 1.0 and t.stats["stretch"] == 1.0
    assert 1 < t.stats["options"] <= t.stats["minimal_options"]
    assert np.all(t.port_mask[np.arange(64), np.arange(64)] == 0)  # delivered at home
    assert set(np.unique(t.vc)) <= {0, 1}
    for src, dest in [(0, 63), (5, 40), (63, 0)]:
        for pick in (min, max):
            hops = bin(src ^ dest).count("1")
            assert len(follow(t, src, dest, pick)) - 1 == t.dist[src, dest] == hops
    assert ls.routing.check(HYPERCUBE, t.port_mask, t.vc) == []


def test_keywords_configs_and_toml_files_name_the_topology(tmp_path):
    a = ls.routing.table(None, kind="random_regular", nodes=32, degree=3, max_ports=3, graph_seed=4)
    b = ls.routing.table({"topology": {"kind": "random_regular", "nodes": 32, "degree": 3,
                                       "max_ports": 3, "graph_seed": 4}})
    assert np.array_equal(a.peer, b.peer) and np.array_equal(a.port_mask, b.port_mask)
    c = ls.routing.table(None, kind="random_regular", nodes=32, degree=3, max_ports=3, graph_seed=5)
    assert not np.array_equal(a.peer, c.peer)
    mesh = ls.routing.table(ls.Config().with_(kind="mesh", radix=[4, 4]))
    assert mesh.stats["minimal"] == 1.0 and mesh.port_mask.shape == (16, 16)
    path = tmp_path / "ring.toml"
    path.write_text('[topology]\nkind = "graph"\nedges = [0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 0, 1]\n')
    ring = ls.routing.table(path)
    assert ring.port_mask.shape == (4, 4) and ls.routing.check(path, ring.port_mask, ring.vc) == []


def test_edge_files_and_dual_tic_nodes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # edge_file is relative to the current directory
    (tmp_path / "g.txt").write_text(
        "# a 6-ring with a chord\n0 1\n1 2\n2 3 4\n3 4\n4 5\n5 0\n0 3 2\n")
    t = ls.routing.table(None, kind="graph", edge_file="g.txt", link_delay=3)
    assert t.port_mask.shape == (6, 6) and ls.routing.check(
        None, t.port_mask, t.vc, kind="graph", edge_file="g.txt") == []
    dual = ls.routing.table(None, kind="hypercube", dimension=6, dual_tic=True)
    assert dual.port_mask.shape == (128, 64) and list(dual.node_router[:3]) == [0, 2, 4]
    (tmp_path / "bad.txt").write_text("0 1\n1 two\n")
    with pytest.raises(ValueError, match=r'topology.edge_file = "bad.txt" line 2 = "1 two"'):
        ls.routing.table(None, kind="graph", edge_file="bad.txt")


def test_checker_finds_the_cycle_of_a_minimal_ring_table():
    edges = [x for i in range(8) for x in (i, (i + 1) % 8, 1)]
    ring = {"topology": {"kind": "graph", "edges": edges}}
    t = ls.routing.table(ring)  # deadlock-free: some routes go the long way
    assert ls.routing.check(ring, t.port_mask, t.vc) == [] and t.stats["minimal"] < 1
    # By hand, all on VC 0: clockwise, and the shorter way round (clockwise on ties).
    ports = t.peer.shape[1]
    port_to = [{int(t.peer[r, p]) // ports: p for p in range(1, ports) if t.peer[r, p] >= 0}
               for r in range(8)]
    for shorter in (False, True):
        mask = np.zeros((8, 8), np.uint32)
        for r in range(8):
            for d in range(8):
                cw = not shorter or (d - r) % 8 <= 4
                if d != r:
                    mask[r, d] = 1 << port_to[r][(r + 1) % 8 if cw else (r - 1) % 8]
        problems = ls.routing.check(ring, mask, np.zeros((8, 8), np.uint8))
        assert len(problems) == 1 and problems[0].endswith("a deadlock is possible")
        if not shorter:  # round the ring
            assert problems[0].startswith(
                "dependency cycle of 8 buffer classes (router, VC): "
                "(0, 0) -[destinations 2, 3, 4, 5, 6, 7]-> (1, 0) -[destinations 0, 3, 4")
        else:  # a router's buffers are shared by both directions: neighbours wait on each other
            cycle = "(1, 0) -[destinations 3, 4, 5]-> (2, 0) -[destinations 0, 7]-> (1, 0)"
            assert cycle in problems[0]


def test_checker_reports_bad_entries_and_refuses_bad_arrays():
    t = ls.routing.table(HYPERCUBE)
    mask = t.port_mask.copy()
    mask[3, 9] = 0
    problems = ls.routing.check(HYPERCUBE, mask, t.vc)
    assert "router 3, destination 9: port_mask = 0: no port permitted" in problems
    with pytest.raises(ValueError, match=r"port_mask: allowed .* shape \(64, 64\)"):
        ls.routing.check(HYPERCUBE, mask[:10], t.vc)
    with pytest.raises(ValueError, match="vc: allowed"):
        ls.routing.check(HYPERCUBE, mask, -np.ones((64, 64), int))


def test_config_takes_the_new_keys_and_keeps_the_vc_family_on_cubes():
    cfg = ls.Config().with_(max_ports=6, dimension=5, nodes=32, degree=3, graph_seed=9,
                            dual_tic=False, edge_file="", edges=[])
    assert cfg.get("topology.max_ports") == 6 and cfg.get("degree") == 3
    with pytest.raises(ValueError,
                       match="allowed only mesh, torus, crossbar for router.family = vc"):
        ls.Config({"topology": {"kind": "hypercube", "dimension": 4}})
    with pytest.raises(ValueError, match=r"topology.max_ports = 4: .* router 0 has degree 6"):
        ls.routing.table(None, kind="hypercube", dimension=6)
    keys = {k["key"]: k for k in ls.schema()}
    assert keys["topology.edge_file"]["type"] == "str"
    assert keys["topology.edges"]["type"] == "int_list"


def test_command_line_takes_the_new_keys(cli):
    proc = cli("run", REPO / "configs" / "default.toml", "--set", "topology.kind=hypercube",
               "--set", "dimension=4")
    assert proc.returncode == 2
    assert "router.family = vc" in proc.stderr and "hypercube" in proc.stderr
    proc = cli("run", REPO / "configs" / "default.toml", "--set", "kind=graph", "--set",
               "edge_file=missing.txt")
    assert proc.returncode == 2 and 'topology.edge_file = "missing.txt"' in proc.stderr
