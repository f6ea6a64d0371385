"""Where routers go on a page and what their ports are called, from the configuration and the
topology tables (`peer`, `port_node`).

k-ary n-cubes are drawn as grids: dimension 0 across, dimension 1 up, a 3-D network as a row of
z-planes (and a 4-D one as a grid of them); a crossbar as one box with its terminals around it;
a multistage network (METRO's multibutterflies and fat trees) as columns of routers, one a
layer, left to right in the order a connection crosses them; any other topology (hypercubes,
random regular graphs, edge lists) is laid out by networkx from its links.
"""

from __future__ import annotations

import numpy as np

from ..config import Config

DIMS = "xyzw"
PLANE_GAP = 1.5  # empty grid columns between two z-planes
CUBES = ("mesh", "torus")
MULTISTAGE = ("multibutterfly", "fat_tree")
LAYER_GAP = 3.0  # grid steps between two layers' columns: room for the wires crossing between


def port_names(config: Config, ports: int, forward: int | None = None) -> list[str]:
    """Short names of a router's ports: "terminal", "+x", "-x", ... for k-ary n-cubes (port
    1+2d leads to the +d neighbour, 2+2d to the -d one), "terminal k" for a crossbar, "fwd k"
    then "bwd k" for a multistage network's router of `forward` forward ports (default half of
    `ports`: every METRO router has as many backward ports as forward ones)."""
    kind = config.get("topology.kind")
    if kind in CUBES:
        return ["terminal"] + [f"{s}{DIMS[d]}" for d in range((ports - 1) // 2) for s in "+-"]
    if kind == "crossbar":
        return [f"terminal {p}" for p in range(ports)]
    if kind in MULTISTAGE:
        f = ports // 2 if forward is None else forward
        return [f"fwd {p}" for p in range(f)] + [f"bwd {p}" for p in range(ports - f)]
    return [f"port {p}" for p in range(ports)]


def coordinates(config: Config, routers: int) -> np.ndarray:
    """[routers, dims] coordinates of a k-ary n-cube's routers (dimension 0 varies fastest)."""
    radix = config.get("topology.radix")
    r = np.arange(routers)
    strides = np.cumprod([1, *radix[:-1]])
    return np.stack([(r // s) % k for s, k in zip(strides, radix)], axis=1)


def positions(config: Config, peer: np.ndarray, stage: np.ndarray | None = None) -> np.ndarray:
    """[routers, 2] drawing positions, one grid step apart between neighbours. A multistage
    network needs each router's layer: the engine's `stage` view."""
    routers = peer.shape[0]
    kind = config.get("topology.kind")
    if kind in CUBES:
        c = coordinates(config, routers)
        radix = config.get("topology.radix")
        pos = np.zeros((routers, 2))
        pos[:, 0] = c[:, 0]
        if len(radix) > 1:
            pos[:, 1] = c[:, 1]
        if len(radix) > 2:  # z-planes side by side
            pos[:, 0] += c[:, 2] * (radix[0] + PLANE_GAP)
        if len(radix) > 3:  # w: rows of z-planes
            pos[:, 1] += c[:, 3] * (radix[1] + PLANE_GAP)
        return pos
    if kind in MULTISTAGE:  # a column a layer, each centred, its routers in order downwards
        assert stage is not None, "a multistage network is drawn by its routers' layers"
        pos = np.zeros((routers, 2))
        for layer in np.unique(stage):
            members = np.nonzero(stage == layer)[0]
            pos[members, 0] = layer * LAYER_GAP
            pos[members, 1] = (len(members) - 1) / 2 - np.arange(len(members))
        return pos
    if routers == 1:
        return np.zeros((1, 2))
    import networkx as nx  # only arbitrary graphs need it

    g: nx.Graph[int] = nx.Graph()
    g.add_nodes_from(range(routers))
    ports = peer.shape[1]
    g.add_edges_from((r, int(peer[r, p]) // ports) for r, p in zip(*np.nonzero(peer >= 0)))
    layout = nx.kamada_kawai_layout(g) if nx.is_connected(g) else nx.spring_layout(g, seed=0)
    xy = np.array([layout[r] for r in range(routers)])
    return xy * np.sqrt(routers)  # about a grid step between neighbours


def port_direction(config: Config, port: int) -> np.ndarray:
    """The unit drawing direction of a k-ary n-cube port's link: +x right, +y up, +z and +w
    diagonal (they lead to other planes, drawn as short strokes)."""
    d, sign = (port - 1) // 2, 1 if port % 2 else -1
    step = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (0.7071, 0.7071), 3: (-0.7071, 0.7071)}[d]
    return sign * np.array(step)
