"""scripts/bytes_per_router_cycle.py (`make roofline`: the bytes a router-cycle moves,
docs/performance.md "Roofline of a cycle") on a small mesh: it builds its traced driver against
the engine as it is now and attributes every stage's and array's bytes. Its figures are
measurements, not asserted beyond their shape; the test keeps the tool from rotting unseen, as
it had (the engine's constructor and run_cycles had moved on, found 2026-11-28)."""

import re
import subprocess
import sys

import pytest
from conftest import REPO

STAGES = ["credit receive", "route computation", "VC allocation", "switch allocation",
          "switch traversal", "terminal: sink", "terminal: inject", "buffer write"]


@pytest.mark.skipif(not (REPO / "build" / "liblockstep_host.a").exists(),
                    reason="needs `make build` (build/liblockstep_host.a)")
def test_trace_attributes_a_cycles_bytes_to_stages_and_arrays():
    r = subprocess.run([sys.executable, str(REPO / "scripts/bytes_per_router_cycle.py"), "trace",
                        "mesh", "4x4", "0.1", "--warm", "200", "--measure", "10"],
                       capture_output=True, text=True, timeout=900, cwd=REPO)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = r.stdout
    rows = {m.group(1).strip(): [float(x) for x in m.group(2).split()]
            for m in re.finditer(r"^(\S.{0,24}?) {2,}([\d. ]+)$", out, re.M)}
    for stage in STAGES:  # B read, distinct, sectors, B written, distinct, sectors
        assert stage in rows and len(rows[stage]) == 6, (stage, out[:2000])
    assert rows["state, all stages"][0] > 0 and rows["state, all stages"][3] > 0
    for array in ("s.buf", "s.in_belt_valid", "s.cr_belt"):  # arrays named by their host line
        assert array in rows, out
    dram = re.search(r"DRAM model .*?: (\d+) B per router-cycle of state", out)
    assert dram and 100 < int(dram.group(1)) < 3000, out[-1500:]
