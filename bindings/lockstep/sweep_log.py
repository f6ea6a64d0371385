"""A sweep's table on disk, appended a point at a time so that an interrupted sweep resumes
where it stopped: the command line's DIR/sweep.csv and `sweep(save=...)`."""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any, Sequence

from .config import Config, load_config

# Keys that choose how a sweep runs, not what it measures: changing them may resume.
HOW_KEYS = {"run.backend", "run.auto_cuda_routers", "run.threads", "run.debug", "traffic.offered"}


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
    cfg.to_toml(saved_path)


class CsvLog:
    """A sweep table in a CSV file: a row per finished point, appended as it finishes."""

    def __init__(self, path: Path, key_columns: list[str]):
        self.path, self.key_columns = Path(path), key_columns
        self.fields: list[str] | None = None
        self.done: set[tuple[str, ...]] = set()
        if self.path.is_file():
            self._load()

    def _load(self) -> None:
        text = self.path.read_text()
        if text and not text.endswith("\n"):  # cut a row torn by an interruption
            text = text[: text.rfind("\n") + 1]
            self.path.write_text(text)
        rows = list(csv.DictReader(text.splitlines()))
        self.fields = list(rows[0]) if rows else None
        # A row starts with its point's swept values, up to the seed (sweep.row): a sweep over
        # other keys would take points of this one for its own.
        fields = self.fields or []
        swept = fields[: fields.index("seed") + 1] if "seed" in fields else fields
        if self.fields and set(swept) != set(self.key_columns):
            raise ValueError(
                f"{self.path} holds a sweep over {', '.join(swept)}: allowed a sweep over the "
                f"same keys to resume (here {', '.join(self.key_columns)}), or another place "
                "to save"
            )
        self.done = {self.key(r) for r in rows}

    def key(self, row: dict[str, Any]) -> tuple[str, ...]:
        """A point's identity: its swept values as written in the file."""
        return tuple(str(row[c]) for c in self.key_columns)

    def todo(self, points: Sequence[Any]) -> list[Any]:
        """The points (sweep.Point) not in the file yet."""
        return [p for p in points if self.key(p.params) not in self.done]

    def append(self, row: dict[str, Any]) -> None:
        new = self.fields is None or self.path.stat().st_size == 0
        if new:
            self.fields = list(row)
        elif set(row) - set(self.fields):  # results another family or workload adds: widen
            with open(self.path, newline="") as f:
                rows = list(csv.DictReader(f))
            self.fields += [k for k in row if k not in self.fields]
            wider = self.path.with_name(self.path.name + ".tmp")  # replaced whole, never torn
            with open(wider, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=self.fields)
                writer.writeheader()
                writer.writerows(rows)
            os.replace(wider, self.path)
        with open(self.path, "a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=self.fields)
            if new:
                writer.writeheader()
            writer.writerow(row)
