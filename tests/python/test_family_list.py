"""The router families are one list (issue 44): lockstep.families holds the schema's
router.family values, each family's parts live in its package bindings/lockstep/<family>/, and
the shared modules reach them only through that list, naming none of them.

A scan runs a tokenizer (a file's text -> its identifiers and string literals) over files and
reports those that name a family: an identifier that is a family's name or starts with it and
"_" (`t3e_view`), a string with a family's name as a word. Comments and docstrings may name
families. The shared Python modules are scanned here; another language's shared folders take
a tokenizer of their own beside `python_tokens`.
"""

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Callable, Iterable, Iterator

from lockstep import _core, families, viz

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "bindings" / "lockstep"
NAMES = families.NAMES
WORD = re.compile(rf"\b({'|'.join(NAMES)})\b")

Token = tuple[int, str, str]  # (line, "name" or "string", text)
Tokenizer = Callable[[str], Iterable[Token]]

# Identifiers of shared modules in which "vc" is a virtual channel, not the family named after
# it: public names (RoutingTable.vc and routing.check's argument, Simulator.vc_owner).
VIRTUAL_CHANNEL = {"bindings/lockstep/routing.py": {"vc"},
                   "bindings/lockstep/simulate.py": {"vc_owner"}}


def names_family(kind: str, text: str) -> bool:
    if kind == "name":
        return text in NAMES or any(text.startswith(f"{f}_") for f in NAMES)
    return bool(WORD.search(text))


def python_tokens(text: str) -> Iterator[Token]:
    """Python source's identifiers and string literals, docstrings (strings that are a whole
    statement) left out."""
    statements = {(n.lineno, n.col_offset) for n in ast.walk(ast.parse(text))
                  if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
                  and isinstance(n.value.value, str)}
    # Python 3.12 splits an f-string into parts; before it, an f-string is one STRING.
    strings = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    for t in tokenize.generate_tokens(io.StringIO(text).readline):
        if t.type == tokenize.NAME:
            yield t.start[0], "name", t.string
        elif t.type in strings and t.start not in statements:
            yield t.start[0], "string", t.string


def naming(files: Iterable[Path], tokenizer: Tokenizer,
           allowed: dict[str, set[str]] | None = None) -> list[str]:
    """Each token of `files` that names a family, as "path:line: text", but for the
    identifiers `allowed` gives a file (by its path in the repository)."""
    found = []
    for path in files:
        name = path.relative_to(REPO).as_posix()
        mine = (allowed or {}).get(name, set())
        for line, kind, text in tokenizer(path.read_text()):
            if names_family(kind, text) and not (kind == "name" and text in mine):
                found.append(f"{name}:{line}: {text}")
    return found


def shared_python() -> list[Path]:
    """Every module of the package but the families' and the list's."""
    own = {PACKAGE / f for f in NAMES} | {PACKAGE / "families.py"}
    return [p for p in sorted(PACKAGE.rglob("*.py")) if not own & {p, *p.parents}]


def test_the_list_is_the_schemas():
    entry = next(e for e in _core.schema() if e["key"] == "router.family")
    assert families.NAMES == tuple(entry["allowed"].split(", "))
    assert families.DEFAULT == entry["default"]


def test_every_family_is_a_package_with_its_drawing():
    for f in NAMES:
        assert (PACKAGE / f / "__init__.py").is_file(), f"bindings/lockstep/{f}/ is missing"
        assert families.package(f).OFFERED_UNIT
    assert viz.families() == sorted(NAMES)


def test_the_shared_python_modules_name_no_family():
    files = shared_python()
    assert PACKAGE / "sweep.py" in files and PACKAGE / "viz" / "router_view.py" in files
    found = naming(files, python_tokens, VIRTUAL_CHANNEL)
    assert not found, ("shared modules naming a router family (reach it through "
                       "lockstep.families, or move the code into its package):\n"
                       + "\n".join(found))


def test_the_scan_tells_code_from_comments_and_docstrings():
    for f in NAMES:
        source = "\n".join([f'"""Docstrings may name {f}."""', f"# so may comments: {f}",
                            f"x = 'router.family = {f}'", f"from .{f}_view import y",
                            f"{f} = 1", f"z = '{f}x', 'a.{f}_b'", ""])
        named = [line for line, kind, text in python_tokens(source) if names_family(kind, text)]
        assert named == [3, 4, 5], f
