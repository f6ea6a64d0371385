"""METRO's network of `lockstep bench`."""

from ..bench import Network

# Figure 3's network (64 routers, 64 endpoints) at 0.27 data words per endpoint per clock, half
# of where it saturates (0.54; docs/design/metro.md), beside the vc 8x8 mesh.
NETWORKS: list[Network] = [
    ("64 mbfly metro", {"router.family": "metro", "kind": "multibutterfly", "radix": [4, 4, 4],
                        "topology.dilation": [2, 2, 1], "packet_size": 19, "offered": 0.27}, 1),
]
