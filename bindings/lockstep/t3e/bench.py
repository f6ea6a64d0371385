"""The Cray T3E's network of `lockstep bench`."""

from ..bench import Network, network_keys

T3E = {"router.family": "t3e"}
# The 512-PE machine with adaptive routing at 0.35 flits per PE per clock (requests and
# responses), about half of its saturation (0.70; docs/design/t3e.md), beside the vc 8x8x8
# torus.
NETWORKS: list[Network] = [
    ("8x8x8 torus t3e", network_keys("torus", [8, 8, 8], 0.35, **T3E), 1),
]
