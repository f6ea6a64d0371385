"""A sweep's table on disk, appended a point at a time so that an interrupted sweep resumes
where it stopped: the command line's DIR/sweep.csv and `sweep(save=...)`.

What goes wrong around it (docs/validation.md, "Faults around a sweep"): each row is written
whole by one write() and synced, so a killed sweep leaves whole rows and at most a cut last
one, which the next run drops; a write that fails (a full disk) is cut back off; a table
edited into something no sweep writes is refused at resume, naming the line; and a lock beside
the table refuses a second sweep of it while one runs.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .config import Config, load_config

# Keys that choose how a sweep runs, not what it measures: changing them may resume.
HOW_KEYS = {"run.backend", "run.auto_cuda_routers", "run.threads", "run.debug", "traffic.offered",
            "run.schedule", "run.cycles_per_launch", "run.block_threads", "run.block_order",
            "run.hot_state", "run.block_view", "run.lanes", "run.roles", "run.fuse_phases"}

# A number as Python writes one into a table (int or float repr, nan and inf included; NaN
# too, as a hand might write it and pandas reads it).
NUMBER = re.compile(r"[-+]?((\d+\.?\d*|\.\d+)(e[-+]?\d+)?|inf|nan)", re.IGNORECASE)
INTEGER = re.compile(r"[-+]?\d+")
# The swept columns every sweep has; the other swept ones hold any config value.
CELLS = {"offered": "number", "seed": "integer"}
CHECKS: dict[str, tuple[Callable[[str], object], str]] = {
    "number": (NUMBER.fullmatch, "a number (nan: nothing measured)"),
    "integer": (INTEGER.fullmatch, "an integer"),
    "bool": (lambda v: v in ("True", "False"), "True or False"),
}
ELSEWHERE = "or save to another place (--out DIR, or save= in Python)"


class TableError(ValueError):
    """A sweep table that cannot be resumed as it is, or that another sweep is writing."""


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold ``path``.lock while a sweep writes the table ``path``: a second sweep of it is
    refused, as the two would run the same points and both append them. flock, not a pid file:
    the kernel drops the lock when its process ends however it ends (SIGKILL too), so a stale
    lock never blocks."""
    lock = path.with_name(path.name + ".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise TableError(
                f"{path} is being written by another sweep (process {holder} holds {lock}): "
                f"allowed one sweep of a table at a time; wait for that one to end, {ELSEWHERE}"
            ) from None
        with contextlib.suppress(OSError):  # the holder's pid only feeds the message above
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # and with it the lock


def check_resumable(saved_path: Path, cfg: Config) -> None:
    """Refuse to mix a different configuration's points into an existing table: ``saved_path``
    keeps the configuration the table's sweep started from (written here)."""
    if saved_path.is_file():
        saved = load_config(saved_path).to_dict()
        now = cfg.to_dict()
        differ = [
            f"{s}.{k}" for s in now for k in now[s]
            if f"{s}.{k}" not in HOW_KEYS and saved.get(s, {}).get(k) != now[s][k]
        ]
        if differ:
            raise ValueError(
                f"{saved_path.parent} holds a sweep of a different configuration "
                f"({', '.join(differ)} differ, {saved_path.name}): allowed the same "
                "configuration to resume, or another place to save"
            )
    # Replaced whole: a sweep killed while writing it must not leave a cut file to resume from.
    part = saved_path.with_name(saved_path.name + ".tmp")
    try:
        cfg.to_toml(part)
        os.replace(part, saved_path)
    except OSError:
        part.unlink(missing_ok=True)
        raise


def same(value: Any) -> str:
    """A swept value as points are matched: numbers by value (an edited 0.050 is still the
    point 0.05, not another one), anything else as written."""
    text = str(value)
    return repr(float(text)) if NUMBER.fullmatch(text) else text


class CsvLog:
    """A sweep table in a CSV file: a row per finished point, appended as it finishes.

    ``key_columns`` are the swept columns, a point's identity; ``result_columns`` follow them
    in every row; ``kinds`` names the columns that hold "text" or "bool" (True/False) cells,
    and any other column holds numbers (or nothing, in rows from before the table widened).
    An existing file is checked against these when it is opened, before anything runs.
    """

    def __init__(self, path: Path, key_columns: list[str], result_columns: Sequence[str] = (),
                 kinds: Mapping[str, str] | None = None):
        self.path, self.key_columns = Path(path), key_columns
        self.result_columns, self.kinds = list(result_columns), dict(kinds or {})
        self.fields: list[str] | None = None
        self.done: dict[tuple[str, ...], int] = {}  # point -> its line (0: appended here)
        if self.path.is_file():
            self._load()

    def _load(self) -> None:
        data = self.path.read_bytes()
        whole = data.rfind(b"\n") + 1
        try:
            text = data[:whole].decode()
        except UnicodeDecodeError as e:
            raise self._error(data[: e.start].count(b"\n") + 1, f"byte {e.start} is not UTF-8",
                              "text as the sweep wrote it") from None
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next((r for r in reader if r), None)
            if header is not None:
                self._check_header(header)
                for record in reader:
                    if record:  # a blank line holds no point (pandas skips it too)
                        self._check_row(reader.line_num, header, record)
        except csv.Error as e:
            raise self._error(reader.line_num, str(e), "rows as the sweep wrote them") from None
        self.fields = header
        if whole < len(data):
            # The row a stopped sweep was writing (rows go in one write() each, so only the
            # last can be cut). Dropped, never completed: a cut cell ("unif" of "uniform")
            # may still read as a value.
            os.truncate(self.path, whole)
            line = data.count(b"\n") + 1
            print(f"lockstep: warning: {self.path}, line {line}: cut short, "
                  "as a sweep stopped while writing it leaves it: dropped it (its point runs "
                  "again)", file=sys.stderr)

    def _error(self, line: int, problem: str, allowed: str, todo: str = "") -> TableError:
        todo = todo or (f"put line {line} back as the sweep wrote it, or delete it (its point "
                        "then runs again)")
        return TableError(f"{self.path}, line {line}: {problem}: allowed {allowed}; {todo}, "
                          f"{ELSEWHERE}")

    def _check_header(self, header: list[str]) -> None:
        todo = "put the header back as the sweep wrote it"
        if "" in header:
            raise self._error(1, f"the header's column {header.index('') + 1} has no name",
                              "a name for each column", todo)
        twice = next((c for c in header if header.count(c) > 1), None)
        if twice is not None:
            raise self._error(1, f"the header names column {twice!r} twice",
                              "each column once", todo)
        # A row starts with its point's swept values, up to the seed (sweep.row): a sweep over
        # other keys would take points of this one for its own.
        swept = header[: header.index("seed") + 1] if "seed" in header else header
        if set(swept) != set(self.key_columns):
            raise TableError(
                f"{self.path} holds a sweep over {', '.join(swept)}: allowed a sweep over the "
                f"same keys to resume (here {', '.join(self.key_columns)}), or another place "
                "to save"
            )
        # Then the results (a swept one, offered, say, is not repeated: sweep.row).
        wanted = [c for c in self.result_columns if c not in swept]
        results = header[len(swept) : len(swept) + len(wanted)]
        for i, want in enumerate(wanted):
            got = results[i] if i < len(results) else None
            if got != want:
                raise self._error(
                    1, f"the header's column {len(swept) + i + 1} is "
                    f"{'missing' if got is None else repr(got)} where a sweep writes {want!r}",
                    f"the result columns {', '.join(wanted)} after the swept ones",
                    todo)

    def _check_row(self, line: int, header: list[str], record: list[str]) -> None:
        if len(record) != len(header):
            raise self._error(line, f"{len(record)} fields where the header has {len(header)}",
                              "a field for each column")
        row = dict(zip(header, record))
        for column, value in row.items():
            kind = CELLS.get(column) or ("text" if column in self.key_columns
                                         else self.kinds.get(column, "number"))
            # Empty: a column the table took on after this row was written (_widen).
            if kind == "text" or (value == "" and column not in self.result_columns):
                continue
            valid, allowed = CHECKS[kind]
            if not valid(value):
                raise self._error(line, f"column {column} holds {value!r}", allowed)
        key = self.key(row)
        if key in self.done:
            point = ", ".join(f"{c}={row[c]}" for c in self.key_columns)
            raise self._error(line, f"the point {point} again (line {self.done[key]} has it)",
                              "each point once", "delete one of the two lines")
        self.done[key] = line

    def key(self, row: Mapping[str, Any]) -> tuple[str, ...]:
        """A point's identity: its swept values."""
        return tuple(same(row[c]) for c in self.key_columns)

    def todo(self, points: Sequence[Any]) -> list[Any]:
        """The points (sweep.Point) not in the file yet."""
        return [p for p in points if self.key(p.params) not in self.done]

    def append(self, row: dict[str, Any]) -> None:
        fields = self.fields
        if fields is not None and set(row) - set(fields):  # results another family adds
            fields = self._widen(fields + [k for k in row if k not in fields])
        out = io.StringIO(newline="")
        writer = csv.DictWriter(out, fieldnames=fields or list(row))
        if fields is None:
            writer.writeheader()
        writer.writerow(row)
        self._write(out.getvalue().encode())
        self.fields = fields or list(row)
        self.done[self.key(row)] = 0

    def _widen(self, fields: list[str]) -> list[str]:
        """The file rewritten with more columns (empty in the rows already there), replaced
        whole so that it is never seen half rewritten."""
        wider = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(self.path, newline="") as f:
                records = [r for r in csv.reader(f) if r]
            with open(wider, "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow(fields)
                writer.writerows(r + [""] * (len(fields) - len(r)) for r in records[1:])
                f.flush()
                os.fsync(f.fileno())
            os.replace(wider, self.path)
        except OSError as e:
            wider.unlink(missing_ok=True)
            raise self._failed(e) from e
        return fields

    def _write(self, data: bytes) -> None:
        """Append ``data`` (rows) in one write() where the system allows, so a killed process
        leaves it whole or not at all, and sync it; a write that fails is cut back off, so
        that the file never keeps part of a row."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            start, written = os.fstat(fd).st_size, 0
            try:
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)  # a full disk may only say so here (NFS, delayed allocation)
            except OSError as e:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, start)
                raise self._failed(e) from e
            except BaseException:  # Ctrl-C between two parts of one row
                if written < len(data):
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, start)
                raise
        finally:
            os.close(fd)

    def _failed(self, e: OSError) -> OSError:
        return OSError(
            e.errno,
            f"writing a row to {self.path} failed ({e.strerror}): the {len(self.done)} rows "
            "before it are kept whole, and nothing of the one that failed; free space (or lift "
            "the file size limit) and run the same sweep again, which resumes it",
        )
