"""benchmarks/gpu_goals.py, the table a GPU session fills (issue 40's goals), runs here on the
CPU alone: a session lent a GPU spends its minutes measuring, not mending the script."""

import csv
import os
import subprocess
import sys

from conftest import REPO, python_path
from lockstep.cli import BENCH_NETWORKS


def test_goals_table_has_a_row_per_network_and_cpu_backend(tmp_path):
    r = subprocess.run([sys.executable, str(REPO / "benchmarks/gpu_goals.py"), "--out",
                        str(tmp_path), "--cpu-only", "--goal", "small", "idle", "--seconds",
                        "0.01"],
                       env={"PYTHONPATH": python_path()}, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = list(csv.DictReader(open(tmp_path / "gpu_goals.csv")))
    families = {row["family"] for row in rows}
    assert families == {"vc", "sconnect", "t3e", "metro", "bgl"}
    # One core and every core for each single network of `lockstep bench` but its 32x32x32 torus,
    # loaded and idle.
    singles = [name for name, _, n in BENCH_NETWORKS if n == 1 and "32x32x32" not in name]
    assert len(singles) == 8
    idle = [f"{name}, idle" for name in singles]
    assert sorted(row["network"] for row in rows) == sorted((singles + idle) * 2)
    assert {row["threads"] for row in rows} == {"1", "0"}
    assert {row["goal"] for row in rows} == {"small", "idle"}
    for row in rows:
        assert float(row["router_cycles_per_s"]) > 0
        assert float(row["us_per_cycle"]) > 0


def test_every_gpu_schedule_of_the_table_is_a_valid_configuration():
    """Each (run.schedule, ..., run.block_view) the GPU rows use is accepted and runs, here on
    the CPU's versions of the GPU schedules: a typo in a key would cost a lent GPU's minutes."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gpu_goals

    mesh = dict(BENCH_NETWORKS[0][1])
    for schedule in gpu_goals.GPU_SCHEDULES:
        sim = gpu_goals.simulator(mesh, 2, "cpu", schedule, threads=1)
        sim.step(20)
        assert sim.cycle == 20, schedule


def test_summary_names_the_fastest_gpu_schedules_and_the_target():
    """The lines a device call's output ends with: per network the fastest GPU rows first, the
    best one's rate against its target, then the host's rows."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gpu_goals

    def row(backend, schedule, lanes, view, us, threads=""):
        return {"goal": "small", "network": "8x8 mesh", "routers_per_instance": 64,
                "backend": backend, "schedule": schedule, "lanes": lanes,
                "block_view": view, "block_threads": 0, "threads": threads,
                "us_per_cycle": str(us), "router_cycles_per_s": str(64 / us * 1e6)}

    rows = [row("cuda", "launch", "one", "", 23.8), row("cuda", "block", "one", "parameter", 9.5),
            row("cuda", "block", "one, roles", "parameter", 12.0),
            row("cuda", "launch", "tile", "", 18.3), row("cpu", "auto", "one", "", 6.0, 1),
            row("cpu", "auto", "one", "", 7.7, 0)]
    gpu_goals.set_targets(rows)
    [line] = gpu_goals.summary(rows)
    assert line.startswith("8x8 mesh: block, one, parameter 9.5 us; block, one, roles, "
                           "parameter 12.0 us; launch, tile 18.3 us;"), line
    assert "against 3.2e+07 (not met)" in line and "cpu 1 6.0 us; cpu all 7.7 us" in line, line


def test_figure6_case_runs_and_its_summary_gives_the_time_to_completion():
    """The large goal's Blue Gene/L alltoall (Figure 6's 32x32x32, to be run to completion): its
    keys make an alltoall that runs under the GPU schedules the table times it with (here on a
    4x4x4 torus, on the CPU), timed past the backlog's 32,767 cycles, without a host row; the
    summary says how long the fastest schedule would take to completion."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gpu_goals

    [fig6] = [c for c in gpu_goals.cases(["large"]) if "Blue Gene/L" in c["network"]]
    assert fig6["keys"]["topology.radix"] == [32, 32, 32] and fig6["warm"] > 32 * 32 * 32
    assert fig6["keys"]["traffic.pattern"] == "alltoall" and fig6["host"] is False
    # The binding's bound, its busiest links' load: each node has 1,024 destinations at each
    # offset round a ring of 32 (256 hops over the offsets), a ring's 32 nodes share its 64
    # links (both ways): 32 x 1,024 x 256 / 64 = 131,072 packets a link, each 270 byte times
    # (256 bytes, trailer, gap, ack).
    assert fig6["completion"] == 131072 * 270
    small = dict(fig6["keys"], **{"topology.radix": [4, 4, 4]})
    for schedule in gpu_goals.GPU_SCHEDULES:
        if schedule[0] == "block" or "roles" in schedule[3]:
            continue  # not timed for a large network; no role form in Blue Gene/L
        sim = gpu_goals.simulator(small, 1, "cpu", schedule, threads=1)
        sim.step(100)
        assert sim.state("source_queue").sum() > 0, schedule  # the backlog
    rows = [{"goal": "large", "network": fig6["network"], "routers_per_instance": 32768,
             "backend": "cuda", "schedule": "launch", "lanes": lanes, "block_view": "",
             "block_threads": 0, "threads": "", "us_per_cycle": str(us),
             "router_cycles_per_s": str(32768 / us * 1e6),
             "completion_bound_cycles": fig6["completion"]}
            for lanes, us in (("one", 51.0), ("tile", 34.0))]
    gpu_goals.set_targets(rows)
    [line] = gpu_goals.summary(rows)
    assert line.startswith(f"{fig6['network']}: launch, tile 34.0 us; launch, one 51.0 us;")
    assert "to completion (at least 3.5e+07 cycles) about 20 min; no host rows" in line, line


def test_ncu_figures_survive_an_ncu_without_the_issue_metrics(tmp_path, monkeypatch):
    """--ncu asks for the issue interval's metrics beside the others; an ncu that refuses a
    name still gives the others. A fake ncu here, printing `ncu --csv`'s last three columns
    (name, unit, value); the profiled command's last argument says which version it plays."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gpu_goals

    fake = tmp_path / "ncu"
    fake.write_text(
        "#!/usr/bin/env python3\n"
        "import sys\n"
        "names = sys.argv[sys.argv.index('--metrics') + 1].split(',')\n"
        "if 'smsp__inst_executed.sum' in names and open(sys.argv[-1]).read() == 'old':\n"
        "    print('==ERROR== Failed to find metric smsp__inst_executed.sum'); sys.exit(1)\n"
        "for i, n in enumerate(names):\n"
        "    print(f'\"0\",\"k\",\"WarpStateStats\",\"{n}\",\"unit\",\"{1000 * (i + 1):,}\"')\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    names = gpu_goals.NCU_METRICS + gpu_goals.NCU_ISSUE
    for version, expect in (("new", names), ("old", gpu_goals.NCU_METRICS)):
        marker = tmp_path / version
        marker.write_text(version)
        m = gpu_goals.ncu_metrics([], [str(marker)], names, tmp_path / f"{version}.csv")
        assert sorted(m) == sorted(expect), version
        assert m[gpu_goals.NCU_METRICS[1]] == 2000.0  # "2,000" read as a number
