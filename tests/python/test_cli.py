"""The command line (``python -m lockstep``): output, one-line errors, resumable sweeps."""

import csv
import json

import pytest
from conftest import REPO, TINY

import lockstep as ls

DEFAULT = REPO / "configs" / "default.toml"


@pytest.fixture
def tiny_toml(tmp_path):
    path = tmp_path / "tiny.toml"
    ls.Config(TINY).to_toml(path)
    return path


def assert_usage_error(proc, *words):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lockstep: error: "), proc.stderr
    assert all(w in lines[0] for w in words), lines[0]


def test_run_prints_json(cli, tiny_toml):
    proc = cli("run", tiny_toml, "--set", "offered=0.1", "--set", "topology.radix=[4,4]")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert abs(result["offered"] - 0.1) < 0.02 and result["backend"] in ("cpu", "cuda")
    assert "link_utilization" not in result
    full = json.loads(cli("run", tiny_toml, "--full", "--backend", "cpu").stdout)
    assert len(full["link_utilization"]) == 16 and full["backend"] == "cpu"


@pytest.mark.parametrize(
    "args, words",
    [
        (["run", "missing.toml"], ["missing.toml", "not found"]),
        (["run", DEFAULT, "--set", "routing=foo"], ["router.routing", "foo", "dor"]),
        (["run", DEFAULT, "--set", "ofered=0.3"], ["ofered", "traffic.offered"]),
        (["run", DEFAULT, "--set", "vcs"], ["--set", "vcs", "KEY=VALUE"]),
        (["run", DEFAULT, "--backend", "gpu"], ["run.backend", "gpu", "cpu"]),
        (["sweep", DEFAULT, "--offered", "0.1-0.5"], ["--offered", "0.1-0.5", "START:STOP:STEP"]),
        (["sweep", DEFAULT, "--offered", "0.5:0.1:0.1"], ["--offered", "0.5:0.1:0.1"]),
        (["sweep", DEFAULT, "--offered", "0.1:0.2:0.1", "--seeds", "0"], ["--seeds", "0"]),
        (["sweep", DEFAULT], ["--offered"]),
        (["sweep", DEFAULT, "--offered", "0.1:inf:0.1"], ["--offered", "0.1:inf:0.1"]),
        (["sweep", DEFAULT, "--offered", "0.1", "--vary", "traffic.offered=[0.1,0.2]"],
         ["--vary 'traffic.offered=[0.1,0.2]'", "with --offered and --seeds"]),
        (["sweep", DEFAULT, "--offered", "0.1:0.3:nan"], ["--offered", "START:STOP:STEP"]),
        (["sweep", DEFAULT, "--offered", "0:1:1e-9"], ["loads, allowed at most 10000"]),
        (["bench", "--threads", "-2"], ["--threads", "-2"]),
        (["bench", "--backend", "gpu", "--cycles", "1"], ["run.backend", "gpu", "cpu"]),
        (["frobnicate"], ["frobnicate", "run", "sweep", "bench"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, words):
    assert_usage_error(cli(*args), *words)


def test_bad_config_file_is_one_line_and_exit_2(cli, tmp_path):
    (tmp_path / "bad.toml").write_text('[topology]\nkind = "ring"\n')
    assert_usage_error(cli("run", "bad.toml"), "topology.kind", "ring", "torus")
    (tmp_path / "broken.toml").write_text("[topology\n")
    assert_usage_error(cli("run", "broken.toml"), "broken.toml")
    # A misspelt key, a key in another section and a misspelt value name their neighbour.
    for text, hint in (("[traffic]\nofered = 0.1\n", "(did you mean traffic.offered?)"),
                       ("[traffic]\nvcs = 4\n", "(did you mean router.vcs?)"),
                       ('[topology]\nkind = "tours"\n', '(did you mean "torus"?)')):
        (tmp_path / "typo.toml").write_text(text)
        assert_usage_error(cli("run", "typo.toml"), hint, "allowed")


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_sweep_writes_csv_and_plot_and_resumes(cli, tiny_toml, tmp_path):
    args = ["sweep", tiny_toml, "--offered", "0.05:0.25:0.05", "--seeds", "2", "--batch-size", "2"]
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "results" / "tiny"
    assert (out / "latency_load.png").stat().st_size > 0
    rows = read_rows(out / "sweep.csv")
    assert [(r["offered"], r["seed"]) for r in rows] == [
        (o, s) for o in ("0.05", "0.1", "0.15", "0.2", "0.25") for s in ("1", "2")
    ]

    lines = (out / "sweep.csv").read_text().splitlines(keepends=True)
    (out / "sweep.csv").write_text("".join(lines[:-3]) + lines[-3][:10])  # 3 lost, 1 torn
    second = cli(*args)
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("3 points run, 7 already")
    again = read_rows(out / "sweep.csv")
    assert [(r["offered"], r["seed"]) for r in again] == [(r["offered"], r["seed"]) for r in rows]
    assert again[:7] == rows[:7]

    changed = cli(*args, "--set", "vcs=4")
    assert_usage_error(changed, "results/tiny", "router.vcs")


def test_bench_prints_a_table(cli):
    proc = cli("bench", "--quick", "--cycles", "20", "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert "router-cycles/s" in lines[0] and len(lines) == 12
    names = ["8x8 mesh", "16x16 torus", "8x8x8 torus", "32x32x32 torus", "32 x 8x8 mesh",
             "8x8 mesh sconn", "64 hcube sconn", "8x8x8 torus t3e", "64 mbfly metro",
             "8x8x8 torus bgl"]
    for name, line in zip(names, lines[1:11]):
        assert line.startswith(name), line
    assert lines[5].split()[4] == str(32 * 64)
    assert lines[6].split()[3] == lines[7].split()[3] == "64"  # S-Connect beside vc: 64 routers
    assert lines[8].split()[3] == lines[3].split()[2] == "512"  # the T3E beside the vc 8x8x8
    assert lines[9].split()[3] == lines[1].split()[2] == "64"  # METRO beside the vc 8x8 mesh
    assert lines[10].split()[3] == lines[3].split()[2] == "512"  # BG/L beside the vc 8x8x8
    # The engine's own arrays: a T3E router holds ~25 KB, a vc torus router ~7 KB.
    state_mb = {name: float(line.split()[-2]) for name, line in zip(names, lines[1:11])}
    assert all(mb > 0 for mb in state_mb.values()), state_mb
    assert state_mb["8x8x8 torus t3e"] > 3 * state_mb["8x8x8 torus"], state_mb


def test_set_options_are_checked_together(cli, tmp_path):
    # request_reply alone is invalid on a 2-VC torus; with vcs=4 given after it, it is fine.
    r = cli("run", REPO / "configs/default.toml", "--set", "traffic.request_reply=true",
            "--set", "router.vcs=4", "--set", "run.warmup=100", "--set", "run.measure=300")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["accepted"] > 0


def test_sweep_varies_other_keys_and_resumes(cli, tmp_path):
    args = ["sweep", DEFAULT, "--offered", "0.05:0.1:0.05", "--vary", "router.vcs=[2,4]",
            "--set", "run.warmup=100", "--set", "run.measure=300", "--out", tmp_path / "v"]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(open(tmp_path / "v" / "sweep.csv")))
    assert sorted((row["vcs"], row["offered"]) for row in rows) == [
        ("2", "0.05"), ("2", "0.1"), ("4", "0.05"), ("4", "0.1")]
    r = cli(*args)
    assert r.returncode == 0 and "0 points run, 4 already" in r.stdout
    bad = cli("sweep", DEFAULT, "--offered", "0.1:0.1:0.1", "--vary", "router.vcs=4")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--vary" in bad.stderr


def test_sweep_over_families_widens_the_table_and_resumes_only_the_same_sweep(cli, tmp_path):
    # vc rows come first, then T3E rows with result columns of their own (round trips...):
    # the file takes the new columns.
    short = ["--set", "run.warmup=100", "--set", "run.measure=300", "--out", tmp_path / "f"]
    args = ["sweep", REPO / "configs/t3e_64.toml", "--offered", "0.1,0.2",
            "--vary", 'router.family=["vc","t3e"]', *short]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    rows = read_rows(tmp_path / "f" / "sweep.csv")
    assert [row["family"] for row in rows] == ["vc", "vc", "t3e", "t3e"]
    assert rows[0]["round_trip_mean"] == "" and float(rows[2]["round_trip_mean"]) > 0
    assert "0 points run, 4 already" in cli(*args).stdout
    # The same directory without --vary would take the vc and T3E rows for its own points.
    other = cli("sweep", REPO / "configs/t3e_64.toml", "--offered", "0.1,0.2", *short)
    assert_usage_error(other, "sweep over family, offered, seed", "same keys")


def test_sweep_batches_fill_a_gpu_and_stay_small_on_the_cpu():
    from lockstep.cli import default_batch_size

    cpu = ls.Config().with_(backend="cpu")
    assert default_batch_size(cpu, 2) == 8
    gpu = ls.Config().with_(backend="cuda")  # the default 8x8 torus: 256 of them fill 16,384
    assert default_batch_size(gpu, 1) == 256
    assert default_batch_size(gpu.with_(radix=[64, 64, 64]), 3) == 12
