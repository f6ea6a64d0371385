"""Rules for kernel source that a CPU build cannot check by running it.

nvcc 13.0 default-initialises only the first row of a multi-dimensional local array of a record
with default member initialisers (docs/architecture.md, item 20): Blue Gene/L's state differed
on CUDA from the first cycle because of one. A kernel that declares such an array must set every
entry itself (`name[i][j] = Type{};` in the loop that fills it)."""

import re
from pathlib import Path

KERNELS = Path(__file__).resolve().parents[2] / "kernels"
# A local array of a class type (a capitalised name) with two or more dimensions, no initialiser.
DECL = re.compile(r"^\s+([A-Z]\w*)\s+(\w+)(\[[^\]]+\]){2,};")


def offending(text: str) -> list[str]:
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        m = DECL.match(line)
        if not m:
            continue
        kind, name = m.group(1), m.group(2)
        reset = re.compile(rf"\b{name}(\[[^\]]+\]){{2,}}\s*=\s*{kind}\{{\}};")
        if not any(reset.search(later) for later in lines[i + 1:i + 25]):
            out.append(f"{kind} {name}: line {i + 1}")
    return out


def test_multidimensional_record_arrays_are_set_entry_by_entry():
    bad = {str(p.relative_to(KERNELS)): offending(p.read_text())
           for p in KERNELS.rglob("*.hpp")}
    assert not {k: v for k, v in bad.items() if v}, bad


def test_the_rule_finds_the_pattern_it_is_for():
    broken = ("    Request req[kMaxDirs][kMaxVcs];\n"
              "    for (uint32_t d = 0; d < dirs; ++d) req[d][0] = jsq(d);\n")
    fixed = ("    Request req[kMaxDirs][kMaxVcs];\n"
             "    for (uint32_t d = 0; d < dirs; ++d) {\n"
             "      for (uint32_t w = 0; w < vcs; ++w) req[d][w] = Request{};\n")
    assert offending(broken) == ["Request req: line 1"]
    assert offending(fixed) == []
    assert offending("    Request inj[kMaxFifos];\n") == []  # one dimension: nvcc is right
