"""Faults around a sweep (docs/validation.md): a sweep killed while it writes its table, a table
cut short or edited by hand before a resume, a full disk, two sweeps of one table at once. In
each: no finished point lost, no wrong or duplicated row, and a message naming the file, what
is wrong and what to do. Through the public paths: ``python -m lockstep sweep`` and
``ls.sweep(save=...)``."""

import csv
import errno
import os
import resource
import signal
import subprocess
import sys

import pytest
from conftest import TINY, python_path, wait_for

import lockstep as ls
from lockstep import _core, sweep_log

# Quick points (a few ms each) for the tables edited by hand; slow ones (~0.2 s each) for a
# sweep that must still be running when it is killed or when a second one starts.
QUICK = ls.Config(TINY).with_(warmup=200, measure=500, drain=2000, debug=False)
QUICK_LOADS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]  # x 2 seeds: 16 points
SLOW = QUICK.with_(measure=100_000)
SLOW_LOADS = [round(0.02 * i, 10) for i in range(1, 21)]


def read(path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_point(rows: list[dict]) -> dict:
    """Rows by (offered, seed), their cells as written, the wall time aside: equal cells are
    bit-identical numbers (a float is written as its repr)."""
    out = {(r["offered"], r["seed"]): {k: v for k, v in r.items() if k != "wall_s"}
           for r in rows}
    assert len(out) == len(rows), "a point written twice"
    return out


def assert_complete(path, reference: dict) -> None:
    """The table holds every point once, each with the numbers of an uninterrupted sweep."""
    assert by_point(read(path)) == reference


def assert_part_of(path, reference: dict) -> int:
    """The table holds whole rows only, each as an uninterrupted sweep wrote it: how many."""
    assert path.read_bytes().endswith(b"\n"), "part of a row left in the table"
    kept = by_point(read(path))
    assert kept.items() <= reference.items()
    return len(kept)


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick sweep's table, run uninterrupted: (its file, its rows by point)."""
    path = tmp_path_factory.mktemp("quick") / "sweep.csv"
    ls.sweep(QUICK, offered=QUICK_LOADS, seeds=2, save=path)
    return path, by_point(read(path))


@pytest.fixture(scope="module")
def slow(tmp_path_factory):
    """The slow sweep's rows by point, run uninterrupted."""
    path = tmp_path_factory.mktemp("slow") / "sweep.csv"
    ls.sweep(SLOW, offered=SLOW_LOADS, save=path)
    return by_point(read(path))


def sweep_args(tmp_path, cfg, loads, *more) -> list:
    """`lockstep sweep` of ``cfg`` over ``loads`` into tmp_path/out, a point per batch (so
    a row is written every point)."""
    toml = tmp_path / "sweep_config.toml"
    cfg.to_toml(toml)
    return ["sweep", toml, "--offered", ",".join(map(str, loads)), "--batch-size", "1",
            "--out", tmp_path / "out", *more]


def start(tmp_path, args) -> subprocess.Popen:
    """`python -m lockstep ARGS` started in the background, its output to files (a pipe
    nobody reads could fill and stall it)."""
    env = dict(os.environ, PYTHONPATH=python_path(), MPLBACKEND="Agg")
    with open(tmp_path / "stdout", "w") as out, open(tmp_path / "stderr", "w") as err:
        return subprocess.Popen([sys.executable, "-m", "lockstep", *map(str, args)],
                                cwd=tmp_path, env=env, stdout=out, stderr=err)


def lines_of(path) -> list[str]:
    """The file's lines, each with its own end of line (the table's are \\r\\n)."""
    return path.read_bytes().decode().splitlines(keepends=True)


def write_lines(path, lines: list[str]) -> None:
    path.write_bytes("".join(lines).encode())


def rows_in(path) -> int:
    return max(0, len(path.read_bytes().splitlines()) - 1) if path.is_file() else 0


def first_row(sweep: subprocess.Popen, table, tmp_path) -> None:
    """Wait until the background sweep has written a row, and is still running."""
    wait_for("a row in sweep.csv, or the sweep's end",
             lambda: rows_in(table) >= 1 or sweep.poll() is not None, timeout=120, interval=0.02)
    assert sweep.poll() is None, (tmp_path / "stderr").read_text()


def one_line_error(proc) -> str:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lockstep: error: "), proc.stderr
    return lines[0]


def test_a_killed_sweep_keeps_its_rows_and_the_rerun_completes_the_table(
        cli, tmp_path, slow):
    args = sweep_args(tmp_path, SLOW, SLOW_LOADS)
    table = tmp_path / "out" / "sweep.csv"
    sweep = start(tmp_path, args)
    try:
        first_row(sweep, table, tmp_path)
        sweep.send_signal(signal.SIGKILL)
        sweep.wait(timeout=60)
    finally:
        sweep.kill()
    assert sweep.returncode == -signal.SIGKILL
    kept = assert_part_of(table, slow)
    assert 1 <= kept < len(SLOW_LOADS)
    # A kill in the middle of writing a row (a row is one write(), so in practice a machine's
    # crash or a network file system's): the row's first part, no end of line.
    before = table.read_bytes()
    table.write_bytes(before + before.splitlines(keepends=True)[-1][:40])

    rerun = cli(*args)  # the dead sweep's lock (sweep.csv.lock) is there and must not block
    assert rerun.returncode == 0, rerun.stderr
    assert (tmp_path / "out" / "sweep.csv.lock").is_file()
    assert f"{table}, line {kept + 2}: cut short" in rerun.stderr and "dropped" in rerun.stderr
    assert rerun.stdout.startswith(f"{len(SLOW_LOADS) - kept} points run, {kept} already")
    assert table.read_bytes().startswith(before), "a finished row changed"
    assert_complete(table, slow)


def cut_mid_row(lines):
    return lines[:5] + [lines[5][:30]]


def cut_in_the_header(lines):
    return [lines[0][:30]]


def cut_between_rows(lines):
    return lines[:5]


@pytest.mark.parametrize("edit, warned", [(cut_mid_row, "line 6: cut short"),
                                          (cut_in_the_header, "line 1: cut short"),
                                          (cut_between_rows, None)])
def test_a_table_cut_short_resumes_without_the_cut_row(tmp_path, capsys, quick, edit, warned):
    reference_path, reference = quick
    path = tmp_path / "sweep.csv"
    lines = edit(reference_path.read_bytes().splitlines(keepends=True))
    path.write_bytes(b"".join(lines))
    whole = b"".join(line for line in lines if line.endswith(b"\n"))
    df = ls.sweep(QUICK, offered=QUICK_LOADS, seeds=2, save=path)
    err = capsys.readouterr().err
    if warned:
        assert f"{path}, {warned}" in err and "dropped it (its point runs again)" in err, err
    else:
        assert "warning" not in err, err
    assert path.read_bytes().startswith(whole), "a finished row changed"
    assert len(df) == len(reference)
    assert_complete(path, reference)


def set_cell(lines, line, column, value):
    """``lines`` with the cell of ``column`` on line ``line`` (1: the header) set to
    ``value``."""
    header = lines[0].rstrip("\r\n").split(",")
    cells = lines[line - 1].rstrip("\r\n").split(",")
    cells[header.index(column)] = value
    return lines[: line - 1] + [",".join(cells) + "\r\n"] + lines[line:]


def rename(lines, column, name):
    """``lines`` with the header's column ``column`` named ``name``."""
    header = lines[0].rstrip("\r\n").split(",")
    header[header.index(column)] = name
    return [",".join(header) + "\r\n"] + lines[1:]


# Hand edits a resume refuses, each with the line it names and words of its message.
EDITS = {
    "a field too many": (lambda rows: rows[:2] + [rows[2].rstrip() + ",7\r\n"] + rows[3:], 3,
                         ["32 fields where the header has 31", "a field for each column"]),
    "a field too few": (lambda rows: rows[:3] + [rows[3].rsplit(",", 1)[0] + "\r\n"] + rows[4:],
                        4, ["30 fields where the header has 31"]),
    "a word for a number": (lambda rows: set_cell(rows, 5, "latency_mean", "fast"), 5,
                            ["column latency_mean holds 'fast'", "allowed a number"]),
    "an empty result": (lambda rows: set_cell(rows, 5, "accepted", ""), 5,
                        ["column accepted holds ''", "allowed a number"]),
    "a fractional seed": (lambda rows: set_cell(rows, 2, "seed", "1.5"), 2,
                          ["column seed holds '1.5'", "allowed an integer"]),
    "yes for True": (lambda rows: set_cell(rows, 3, "saturated", "yes"), 3,
                     ["column saturated holds 'yes'", "allowed True or False"]),
    "a row twice": (lambda rows: rows[:4] + [rows[2]] + rows[4:], 5,
                    ["the point offered=0.05, seed=2 again (line 3 has it)", "each point once",
                     "delete one of the two lines"]),
    "a point twice, written differently": (
        lambda rows: rows + set_cell(rows, 2, "offered", "0.050")[1:2], 18,
        ["the point offered=0.050, seed=1 again (line 2 has it)"]),
    "a result column renamed": (lambda rows: rename(rows, "latency_mean", "latency"), 1,
                                ["column 6 is 'latency' where a sweep writes 'latency_mean'",
                                 "put the header back"]),
    "a column named twice": (lambda rows: rename(rows, "accepted_min", "accepted"), 1,
                             ["names column 'accepted' twice", "each column once"]),
    "a column without a name": (lambda rows: rename(rows, "wall_s", ""), 1,
                                ["column 16 has no name"]),
}


@pytest.mark.parametrize("name", EDITS)
def test_a_table_edited_by_hand_is_refused_naming_the_line(tmp_path, monkeypatch, quick, name):
    edit, line, words = EDITS[name]
    path = tmp_path / "sweep.csv"
    write_lines(path, edit(lines_of(quick[0])))
    edited = path.read_bytes()
    monkeypatch.setattr(_core, "run_batch", None)  # refused before anything runs
    with pytest.raises(ValueError) as e:
        ls.sweep(QUICK, offered=QUICK_LOADS, seeds=2, save=path)
    message = str(e.value)
    assert message.startswith(f"{path}, line {line}: "), message
    assert all(w in message for w in words), message
    assert "or save to another place" in message, message
    assert path.read_bytes() == edited, "a refused table was changed"


def test_a_swept_column_renamed_is_another_sweep(tmp_path, quick):
    path = tmp_path / "sweep.csv"
    write_lines(path, rename(lines_of(quick[0]), "offered", "load"))
    with pytest.raises(ValueError, match=r"holds a sweep over load, seed: allowed a sweep over "
                                         r"the same keys .*another place to save"):
        ls.sweep(QUICK, offered=QUICK_LOADS, seeds=2, save=path)


def test_the_command_line_refuses_an_edited_table_in_one_line(cli, tmp_path, quick):
    args = sweep_args(tmp_path, QUICK, QUICK_LOADS, "--seeds", "2")
    table = tmp_path / "out" / "sweep.csv"
    table.parent.mkdir()
    write_lines(table, set_cell(lines_of(quick[0]), 4, "hops_mean", "3,5"))
    error = one_line_error(cli(*args))
    assert f"{table}, line 4: 32 fields where the header has 31" in error, error
    assert "put line 4 back as the sweep wrote it, or delete it" in error, error


class FullDisk:
    """sweep_log's ``os`` on a disk with ``room`` bytes left: the write that crosses it writes
    what fits and the next one fails with ENOSPC, as write() does on a full disk."""

    def __init__(self, room: int):
        self.room = room

    def __getattr__(self, name):
        return getattr(os, name)

    def write(self, fd, data):
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = os.write(fd, bytes(data[: self.room]))
        self.room -= n
        return n


def test_a_full_disk_stops_the_sweep_keeping_whole_rows(tmp_path, monkeypatch, quick):
    path = tmp_path / "sweep.csv"
    args = {"offered": QUICK_LOADS, "seeds": 2, "batch_size": 3, "save": path}
    monkeypatch.setattr(sweep_log, "os", FullDisk(1000))
    with pytest.raises(OSError) as e:
        ls.sweep(QUICK, **args)
    kept = assert_part_of(path, quick[1])
    assert kept >= 1 and e.value.errno == errno.ENOSPC
    assert str(e.value) == (
        f"[Errno 28] writing a row to {path} failed (No space left on device): the {kept} rows "
        "before it are kept whole, and nothing of the one that failed; free space (or lift the "
        "file size limit) and run the same sweep again, which resumes it")
    monkeypatch.setattr(sweep_log, "os", os)  # space again
    before = path.read_bytes()
    assert len(ls.sweep(QUICK, **args)) == len(quick[1])
    assert path.read_bytes().startswith(before)
    assert_complete(path, quick[1])


def test_a_file_size_limit_stops_the_command_line_sweep_keeping_whole_rows(cli, tmp_path,
                                                                           quick):
    # RLIMIT_FSIZE makes the kernel refuse writes past a size (EFBIG), as a full disk refuses
    # them (ENOSPC); above the size of the configuration the sweep keeps beside the table.
    limit = len(QUICK.to_toml().encode()) + 300

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails, the process lives
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    args = sweep_args(tmp_path, QUICK, QUICK_LOADS, "--seeds", "2")
    table = tmp_path / "out" / "sweep.csv"
    env = dict(os.environ, PYTHONPATH=python_path(), MPLBACKEND="Agg")
    first = subprocess.run([sys.executable, "-m", "lockstep", *map(str, args)], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=120,
                           preexec_fn=limited, check=False)
    error = first.stderr.strip().splitlines()[-1]
    assert first.returncode == 2, first.stderr
    kept = assert_part_of(table, quick[1])
    assert 1 <= kept < len(quick[1]) and table.stat().st_size <= limit
    assert error == (
        f"lockstep: error: [Errno 27] writing a row to {table} failed (File too large): the "
        f"{kept} rows before it are kept whole, and nothing of the one that failed; free space "
        "(or lift the file size limit) and run the same sweep again, which resumes it")
    rerun = cli(*args)
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.startswith(f"{len(quick[1]) - kept} points run, {kept} already")
    assert_complete(table, quick[1])


def test_a_second_sweep_of_the_same_table_is_refused_while_the_first_runs(cli, tmp_path, slow):
    args = sweep_args(tmp_path, SLOW, SLOW_LOADS)
    table = tmp_path / "out" / "sweep.csv"
    first = start(tmp_path, args)
    try:
        first_row(first, table, tmp_path)
        second = cli(*args)
        error = one_line_error(second)
        with pytest.raises(ValueError) as e:  # Python's sweep(save=...) of the same table
            ls.sweep(SLOW, offered=SLOW_LOADS, save=table)
        assert first.poll() is None, "the first sweep ended before the second was tried"
        first.wait(timeout=120)
    finally:
        first.kill()
    for message in (error, str(e.value)):
        assert (f"{table} is being written by another sweep (process {first.pid} holds "
                f"{table}.lock): allowed one sweep of a table at a time; wait for that one to "
                "end, or save to another place") in message, message
    assert first.returncode == 0, (tmp_path / "stderr").read_text()
    assert_complete(table, slow)
    again = cli(*args)  # the lock went with the first sweep
    assert again.returncode == 0 and again.stdout.startswith(f"0 points run, {len(slow)} already")
