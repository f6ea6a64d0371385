"""The vc family's networks of `lockstep bench`."""

from ..bench import Network, network_keys

# Loads are about half of the saturation knee for 2-VC, 1-flit, DOR, uniform traffic: 0.15 on
# the 8x8 mesh (BookSim knee 0.30) and 0.125 on 8-ary tori (knee 0.26 for 8x8, 0.25 for 8x8x8),
# scaled by 8/k for larger tori as their channel-load bound (8/k) is. The 8x8 mesh and 8x8x8
# torus rows are BookSim's reference measurements C1, C6; benchmarks/bench_main.cpp measures
# these from C++.
NETWORKS: list[Network] = [
    ("8x8 mesh", network_keys("mesh", [8, 8], 0.15), 1),
    ("16x16 torus", network_keys("torus", [16, 16], 0.0625), 1),
    ("8x8x8 torus", network_keys("torus", [8, 8, 8], 0.125), 1),
    ("32x32x32 torus", network_keys("torus", [32, 32, 32], 0.03125), 1),
    ("32 x 8x8 mesh", network_keys("mesh", [8, 8], 0.15), 32),
]
