"""The generic virtual-channel router (router.family = "vc"; kernels/vc/, docs/architecture.md),
comparable with BookSim 2's input-queued router: its drawing and packet tracer (view.py,
requests.py, tracer.py, in lockstep.viz) and its networks of `lockstep bench` (bench.py).
"""

OFFERED_UNIT = "flits/node/cycle"  # what traffic.offered counts
