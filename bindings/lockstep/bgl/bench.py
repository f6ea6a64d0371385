"""Blue Gene/L's network of `lockstep bench`."""

from ..bench import Network

# configs/bgl_8x8x8.toml's midplane (256-byte packets, one cycle a byte time) at 0.45 bytes per
# node per cycle, half of where it saturates (0.9; docs/design/bgl.md), beside the vc 8x8x8
# torus.
NETWORKS: list[Network] = [
    ("8x8x8 torus bgl", {"router.family": "bgl", "kind": "torus", "radix": [8, 8, 8],
                         "link_delay": 4, "packet_size": 256, "offered": 0.45}, 1),
]
