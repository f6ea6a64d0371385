"""Registers, stack and spills of every family's cycle kernels, as ptxas reports them
(`nvcc -Xptxas -v`), for docs/performance.md: the launch-per-cycle kernel (for_each_kernel) and
the many-cycles-per-launch ones (block_cycles_kernel, its last two template arguments whether its
view is in shared memory, run.block_view, and whether the roles run on threads of their own,
run.roles; grid_cycles_kernel), each with one lane or a tile of 16 an element
(for_each_tile_kernel: run.lanes = "tile"; for_each_roles_kernel: run.roles, the families with
a role form), one row per family and router shape. Needs only nvcc (no GPU); takes a few minutes
on 2 cores.

--sass adds each kernel's memory instructions from its SASS (cuobjdump: the CUDA toolkit's, or
`pip install nvidia-cuda-cuobjdump==13.5.37`): instructions in all, loads from global memory
(LDG: the compiler knows the address is global), generic loads (LD: it does not), shared (LDS),
local (LDL: the stack) and constant (LDC, ULDC) memory, and the stores likewise. Static counts,
not executed ones: they show where a schedule's kernel reads its view and state from.

    python scripts/ptxas_report.py [--arch 90] [--family vc ...] [--sass]
"""
import argparse
import collections
import importlib.util
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAMILIES = ["vc", "sconnect", "t3e", "metro", "bgl"]
KERNELS = ("for_each_kernel", "for_each_tile_kernel", "for_each_roles_kernel",
           "block_cycles_kernel", "grid_cycles_kernel")


# The memory instructions --sass counts, in its columns' order.
MEMORY_OPS = ("LDG", "LD", "LDS", "LDL", "LDC", "ULDC", "STG", "ST", "STS", "STL")


def compile_family(family: str, arch: str, cuobjdump: str | None = None) -> tuple[str, str]:
    """ptxas's log of the family's CUDA translation unit, and its SASS if `cuobjdump` is given."""
    src = ROOT / f"host/{family}/{family}_engine_cuda.cu"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["nvcc", "-DLOCKSTEP_HAVE_CUDA", f"-I{ROOT}", "-isystem=/usr/local/cuda/include",
               f"-isystem={ROOT / 'third_party/Random123/include'}",
               "-O3", "-DNDEBUG", f"--generate-code=arch=compute_{arch},code=sm_{arch}",
               "-std=c++17", "-Xptxas", "-v", "-c", str(src), "-o", f"{tmp}/out.o"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"nvcc failed on {src}:\n{r.stderr[-3000:]}")
        sass = ""
        if cuobjdump:
            sass = subprocess.run([cuobjdump, "-sass", f"{tmp}/out.o"], capture_output=True,
                                  text=True, check=True).stdout
    return r.stderr, sass


def find_cuobjdump() -> str:
    """The toolkit's cuobjdump, or the one of the nvidia-cuda-cuobjdump wheel."""
    found = shutil.which("cuobjdump")
    if found:
        return found
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        for tool in sorted(pathlib.Path(root).glob("cu*/bin/cuobjdump")):
            return str(tool)
    sys.exit("--sass needs cuobjdump: the CUDA toolkit's, or `pip install "
             "nvidia-cuda-cuobjdump==13.5.37`")


def memory_ops(sass: str) -> dict[str, collections.Counter]:
    """Per kernel (mangled name), how many of its SASS instructions have each opcode."""
    parts = re.split(r"\n\s*Function : (\S+)\n", sass)
    # "/*0a40*/  @!P0 LDG.E.64 R2, desc[UR4][R2.64] ;": the address, a predicate, the opcode
    op = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)")
    return {name: collections.Counter(m.group(1) for m in op.finditer(body))
            for name, body in zip(parts[1::2], parts[2::2])}


def demangle(names: list[str]) -> list[str]:
    r = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return r.stdout.splitlines() if r.returncode == 0 else names


def kernels(log: str) -> list[dict]:
    """The cycle kernels' figures: ptxas prints 'Compiling entry function NAME', then a line
    of stack frame and spills, then one of registers."""
    rows, name = [], None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and name:
            rows.append({"mangled": name, "stack": int(m.group(1)),
                         "spill_st": int(m.group(2)), "spill_ld": int(m.group(3))})
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and name and rows and rows[-1]["mangled"] == name:
            rows[-1]["registers"] = int(m.group(1))
            name = None
    for row, full in zip(rows, demangle([r["mangled"] for r in rows])):
        row["name"] = full
    return [r for r in rows if any(k in r["name"] for k in KERNELS) and "Cycle" in r["name"]]


def short(name: str) -> tuple[str, str]:
    """(kernel, cycle functor with its router shape) from a demangled name."""
    kernel = next(k for k in KERNELS if k in name)
    functor = name.split(kernel + "<", 1)[1]
    functor = functor[:functor.rindex(">(")].strip()
    return kernel, re.sub(r"(\d+)u\b", r"\1", functor.replace("ls::", "").replace("> >", ">>"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="90", help="compute capability without the dot")
    ap.add_argument("--family", nargs="*", default=FAMILIES, choices=FAMILIES)
    ap.add_argument("--sass", action="store_true",
                    help="also count each kernel's memory instructions (needs cuobjdump)")
    args = ap.parse_args()
    cuobjdump = find_cuobjdump() if args.sass else None
    nvcc = subprocess.run(["nvcc", "--version"], capture_output=True, text=True)
    print(f"sm_{args.arch}, {nvcc.stdout.splitlines()[-1]}")
    extra = ["instructions", *MEMORY_OPS] if args.sass else []
    print("| family | kernel | cycle functor | registers | stack B | spill stores B "
          "| spill loads B |" + "".join(f" {c} |" for c in extra))
    print("|---|---|---|---|---|---|---|" + "---|" * len(extra))
    for fam in args.family:
        log, sass = compile_family(fam, args.arch, cuobjdump)
        ops = memory_ops(sass)
        for r in sorted(kernels(log), key=lambda r: short(r["name"])[::-1]):
            kernel, functor = short(r["name"])
            counts = ops.get(r["mangled"], collections.Counter())
            cells = [sum(counts.values()), *(counts[o] for o in MEMORY_OPS)] if args.sass else []
            print(f"| {fam} | {kernel} | {functor} | {r.get('registers', '?')} | {r['stack']} "
                  f"| {r['spill_st']} | {r['spill_ld']} |" + "".join(f" {c} |" for c in cells),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
