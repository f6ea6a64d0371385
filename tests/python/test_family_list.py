"""The router families are one list (issue 44): host/families.hpp, whose names the compiled
schema's router.family values and lockstep.families repeat. Each family's parts live in its
folders (kernels/<family>, host/<family>, bindings/lockstep/<family>), and the shared code
reaches them only through that list, naming none of them.

A scan runs a tokenizer (a file's text -> its identifiers and string literals) over the shared
Python modules and reports those that name a family: an identifier that is a family's name or
starts with it and "_" (`t3e_view`), a string with a family's name as a word. Comments and
docstrings may name families. The shared C++ folders are scanned for what would reach a family
without the list: its headers included, its namespace, its configuration section (Config's
member), and any other use of a name that is no other word ("vc" is also a virtual channel).
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


# The shared C++ folders (host/families.hpp, the list, is not among them).
CPP_SHARED = ["host/config", "host/engine", "host/backend", "host/traffic", "host/topology",
              "host/routing", "kernels/common"]
CPP_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def shared_cpp() -> list[Path]:
    files = [p for d in CPP_SHARED for p in sorted((REPO / d).rglob("*"))
             if p.suffix in (".cpp", ".hpp", ".cu", ".cuh")]
    return files + sorted(p for p in (REPO / "bindings").glob("*") if p.suffix in (".cpp", ".hpp"))


def cpp_naming(name: str, text: str) -> list[str]:
    """Where C++ source `text` (the file `name`) reaches a family without the list: an include
    of its folder, its namespace, the vc router's section (Config::vc and its keys), any other
    family's name in code or strings; as "path:line: text"."""
    vc_keys = re.findall(r"^  \S+ (\w+) = ", (REPO / "host/vc/vc_config.hpp").read_text(), re.M)
    code = CPP_TOKENS.sub(lambda m: "" if m.group(0)[0] == "/" else m.group(0), text)
    found = []
    for m in CPP_TOKENS.finditer(code):
        body = m.group(0)[1:-1]
        if m.group(0)[0] == '"' and any(re.search(rf"(^|/){f}/", body)
                                        or (f != "vc" and re.search(rf"\b{f}\b", body))
                                        for f in NAMES):
            found.append(f"{name}:{code.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    bare = CPP_TOKENS.sub('""', code)
    for f in NAMES:
        pattern = rf"\b{f}::" + (rf"|\.vc\.({'|'.join(vc_keys)})\b" if f == "vc" else rf"|\b{f}\b")
        for m in re.finditer(pattern, bare):
            line = bare.count("\n", 0, m.start()) + 1
            found.append(f"{name}:{line}: {bare.splitlines()[line - 1].strip()}")
    return found


def test_the_list_is_the_schemas():
    entry = next(e for e in _core.schema() if e["key"] == "router.family")
    assert families.NAMES == tuple(entry["choices"])
    listed = re.findall(r"^  X\((\w+),", (REPO / "host/families.hpp").read_text(), re.M)
    assert families.NAMES == tuple(listed)
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


def test_the_shared_cpp_folders_name_no_family():
    files = shared_cpp()
    assert REPO / "host/config/schema.cpp" in files and REPO / "bindings/core_module.cpp" in files
    found = [hit for p in files
             for hit in cpp_naming(p.relative_to(REPO).as_posix(), p.read_text())]
    assert not found, ("shared C++ naming a router family (reach it through host/families.hpp "
                       "and its Family record, or move the code into its folder):\n"
                       + "\n".join(found))


def test_the_cpp_scan_tells_a_family_from_a_virtual_channel():
    for bad in ['#include "../t3e/t3e_config.hpp"', "int x = c.t3e.buffer_depth;",
                "auto y = t3e::kMode0;", 'if (f == "bgl") {}', "int d = c.vc.vcs;",
                "vc::validate(c, size);"]:
        assert cpp_naming("x.cpp", bad), bad
    for fine in ["// the T3E's and bgl's", "uint32_t vc = rt.vc[3];", 'out["vc"] = 1;',
                 "rt.vc.assign(3, 0);", "/* metro */ int a;"]:
        assert not cpp_naming("x.cpp", fine), fine
