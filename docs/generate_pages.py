"""Pages of the documentation site generated from the code, so they cannot drift from it: the
configuration reference from the schema (`lockstep._core.schema()`) and the command line's help
(`lockstep --help` and each command's)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from lockstep import _core, cli


def table() -> str:
    """Every key of the schema: default, what is allowed, what it means."""
    rows = ["| key | default | allowed | meaning |", "|---|---|---|---|"]
    for k in _core.schema():
        d = k["default"]
        default = (f'"{d}"' if isinstance(d, str) else str(d).lower() if isinstance(d, bool)
                   else str(d))
        per = " (may differ within a batch)" if k["per_instance"] else ""
        rows.append(f"| `{k['key']}` | `{default}` | {k['allowed']} | {k['doc']}{per} |")
    return "\n".join(rows)


def configuration() -> str:
    return ("# Configuration reference\n\nEvery key of a configuration file (TOML: `[section]` "
            "then `key = value`) or of `Config.with_`, from the schema the core validates "
            "against. A key given to a family that does not read it is refused.\n\n"
            f"{table()}\n")


def _help(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        cli.build_parser().parse_args(argv)
    return out.getvalue()


def command_line() -> str:
    parts = ["# Command line\n\n`lockstep` (or `python -m lockstep`) runs one configuration, "
             "sweeps offered load or benchmarks. Bad input ends with exit status 2 and one line "
             "naming the option or key, the value and what is allowed.\n"]
    for title, argv in [("lockstep", ["--help"]), ("lockstep run", ["run", "--help"]),
                        ("lockstep sweep", ["sweep", "--help"]),
                        ("lockstep bench", ["bench", "--help"])]:
        parts.append(f"## {title}\n\n```text\n{_help(argv).rstrip()}\n```\n")
    return "\n".join(parts)


# The site's pages sit where their sources do (docs/index.html); its root only points there.
ROOT_INDEX = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>lockstep</title>'
              '<meta http-equiv="refresh" content="0; url=docs/index.html"></head>'
              '<body><a href="docs/index.html">lockstep</a></body></html>\n')


def write(folder: Path) -> None:
    (folder / "root").mkdir(parents=True, exist_ok=True)
    for name, text in (("configuration.md", configuration()), ("cli.md", command_line()),
                       ("root/index.html", ROOT_INDEX)):
        path = folder / name
        if not path.exists() or path.read_text() != text:  # unchanged: Sphinx rereads nothing
            path.write_text(text)
