"""Registers, stack and spills of every family's cycle kernels, as ptxas reports them
(`nvcc -Xptxas -v`), for docs/performance.md: the launch-per-cycle kernel (for_each_kernel) and
the many-cycles-per-launch ones (block_cycles_kernel, grid_cycles_kernel), each with one lane
or a tile of 16 an element (for_each_tile_kernel: run.lanes = "tile"; for_each_roles_kernel:
"roles", the families with a role form), one row per family and router shape. Needs only
nvcc (no GPU); takes a few minutes on 2 cores.

    python scripts/ptxas_report.py [--arch 90] [--family vc ...]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAMILIES = ["vc", "sconnect", "t3e", "metro", "bgl"]
KERNELS = ("for_each_kernel", "for_each_tile_kernel", "for_each_roles_kernel",
           "block_cycles_kernel", "grid_cycles_kernel")


def compile_family(family: str, arch: str) -> str:
    src = ROOT / f"host/{family}/{family}_engine_cuda.cu"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["nvcc", "-DLOCKSTEP_HAVE_CUDA", f"-I{ROOT}", "-isystem=/usr/local/cuda/include",
               f"-isystem={ROOT / 'third_party/Random123/include'}",
               "-O3", "-DNDEBUG", f"--generate-code=arch=compute_{arch},code=sm_{arch}",
               "-std=c++17", "-Xptxas", "-v", "-c", str(src), "-o", f"{tmp}/out.o"]
        r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"nvcc failed on {src}:\n{r.stderr[-3000:]}")
    return r.stderr


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
    args = ap.parse_args()
    nvcc = subprocess.run(["nvcc", "--version"], capture_output=True, text=True)
    print(f"sm_{args.arch}, {nvcc.stdout.splitlines()[-1]}")
    print("| family | kernel | cycle functor | registers | stack B | spill stores B "
          "| spill loads B |")
    print("|---|---|---|---|---|---|---|")
    for fam in args.family:
        found = kernels(compile_family(fam, args.arch))
        for r in sorted(found, key=lambda r: short(r["name"])[::-1]):
            kernel, functor = short(r["name"])
            print(f"| {fam} | {kernel} | {functor} | {r.get('registers', '?')} | {r['stack']} "
                  f"| {r['spill_st']} | {r['spill_ld']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
