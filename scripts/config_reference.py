"""Writes the README's configuration reference from the one schema (lockstep._core.schema()).

    python scripts/config_reference.py          # rewrite README.md between the markers
    python scripts/config_reference.py --check  # exit 1 if README.md is out of date
"""
import pathlib
import sys

from lockstep import _core

BEGIN, END = "<!-- config-reference:begin -->", "<!-- config-reference:end -->"


def table() -> str:
    rows = ["| key | default | allowed | meaning |", "|---|---|---|---|"]
    for k in _core.schema():
        d = k["default"]
        default = f'"{d}"' if isinstance(d, str) else str(d).lower() if isinstance(d, bool) else str(d)
        per = " (may differ within a batch)" if k["per_instance"] else ""
        rows.append(f"| `{k['key']}` | `{default}` | {k['allowed']} | {k['doc']}{per} |")
    return "\n".join(rows)


def main() -> int:
    readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
    text = readme.read_text()
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    new = f"{head}{BEGIN}\n{table()}\n{END}{tail}"
    if "--check" in sys.argv:
        if new != text:
            print("README.md's configuration reference is out of date: run scripts/config_reference.py")
            return 1
        return 0
    readme.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
