"""S-Connect's networks of `lockstep bench`."""

from ..bench import Network, network_keys

SCONNECT = {"router.family": "sconnect"}
# The vc family's 8x8 mesh at the same load (a message per packet), and the Figure 5
# hypercube at 0.4 messages per node per cycle, about half of where its latency turns up (0.8;
# docs/design/sconnect.md).
NETWORKS: list[Network] = [
    ("8x8 mesh sconn", network_keys("mesh", [8, 8], 0.15, **SCONNECT), 1),
    ("64 hcube sconn", network_keys("hypercube", [2], 0.4, **SCONNECT, **{
        "topology.dimension": 6, "topology.max_ports": 6, "sconnect.buffers": 10,
        "sconnect.priorities": 1}), 1),
]
