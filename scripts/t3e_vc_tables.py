"""Anneal the Cray T3E virtual channel tables (R_VCSEL SELECT bits, one direction of a ring)
for every ring size and write bindings/lockstep/t3e/vcsel_tables.json, which
``lockstep.t3e.vc_balance(..., "optimized" | "full")`` and ``table1()`` read.

Scott & Thorson, "The Cray T3E Network", section 4: one table per ring size, annealed for
the whole ring and all its power-of-two subrings at once; "optimized" are 8-entry tables as
the T3E has (entry = destination mod 8), "full" one bit per source/destination pair. Rings the
paper's Table 1 prints are held to its values (lockstep.t3e.vc_anneal.printed_caps); the
script refuses to write tables worse than a printed row. Deterministic (fixed seed); run it
on purpose, never from the tests:

    PYTHONPATH=bindings python scripts/t3e_vc_tables.py                    # rings 2..64, ~2 min
    PYTHONPATH=bindings python scripts/t3e_vc_tables.py --rings 4 8 16 32   # Table 1's, ~10 s
    PYTHONPATH=bindings python scripts/t3e_vc_tables.py --rings 32 --dry-run

With --rings, the other rings' tables in the file are kept.
"""
import argparse
import json
import re
import sys
import time

import lockstep.t3e.vc_anneal as vc_anneal
from lockstep.t3e.vc_balance import (COLUMNS, MAX_RING, TABLES_JSON, check_table, pack_table,
                                     printed_table1, vc_balance)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rings", type=int, nargs="+", default=list(range(2, MAX_RING + 1)),
                    help="ring sizes to anneal (default 2..64)")
    ap.add_argument("--steps", type=int, help="annealing steps (default: by ring size)")
    ap.add_argument("--dry-run", action="store_true", help="anneal and report, write nothing")
    args = ap.parse_args()

    old = json.loads(TABLES_JSON.read_text()) if TABLES_JSON.exists() else {"tables": {}}
    tables = dict(old["tables"])
    steps = dict(old.get("steps", {}))  # as used, per ring size
    paper = printed_table1()
    worse = []
    start = time.perf_counter()
    for k in args.rings:
        entry = {}
        for scheme in ("optimized", "full"):
            t = time.perf_counter()
            bits = check_table(k, vc_anneal.anneal_table(k, scheme, args.steps))
            entry[scheme] = pack_table(bits)
            cells = []
            for m in vc_anneal.levels(k):
                avg, top = vc_balance(k, m, bits)
                cells.append(f"{m}: {avg:.4f}/{top:.4f}")
                row = paper[(paper["ring"] == k) & (paper["subring"] == m)]
                if len(row):
                    short = COLUMNS[scheme]
                    p_avg, p_max = (float(row[f"{short}_{s}"].iloc[0]) for s in ("avg", "max"))
                    if avg >= p_avg + 0.0005 or top >= p_max + 0.0005:
                        worse.append(f"ring {k} subring {m} {scheme}: {avg:.4f}/{top:.4f} "
                                     f"against printed {p_avg}/{p_max}")
            print(f"ring {k:2d} {scheme:9s} {time.perf_counter() - t:6.1f} s  "
                  f"avg/max by subring  {', '.join(cells)}", flush=True)
        tables[str(k)] = entry
        steps[str(k)] = args.steps or vc_anneal.default_steps(k)
    print(f"total {time.perf_counter() - start:.1f} s")
    if worse:
        print("worse than the paper's Table 1, not written:\n  " + "\n  ".join(worse),
              file=sys.stderr)
        return 1
    if args.dry_run:
        return 0
    out = {
        "about": "Cray T3E R_VCSEL SELECT tables, one direction (+) of a ring, dateline node 0 "
                 "(Scott & Thorson, The Cray T3E Network, section 4); one hexadecimal word per "
                 "source node, bit e = entry e (optimized: destination mod 8) or bit d = "
                 "destination d (full). Made by scripts/t3e_vc_tables.py: do not edit.",
        "seed": vc_anneal.SEED,
        "objective": {"whole_ring": vc_anneal.WHOLE_RING, "max_weight": vc_anneal.MAX_WEIGHT,
                      "penalty": vc_anneal.PENALTY,
                      "levels": "the whole ring and its power-of-two subrings >= 4",
                      "caps": "Table 1 values where the paper printed the ring"},
        "steps": {k: steps[k] for k in sorted(steps, key=int)},
        "tables": {k: tables[k] for k in sorted(tables, key=int)},
    }
    text = json.dumps(out, indent=1)
    # A list of words, and the steps, on one line each rather than one line per item.
    text = re.sub(r'\[\s+("0x[^\]]*?)\s+\]', lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]",
                  text)
    text = re.sub(r'"steps": \{[^}]*\}', lambda m: '"steps": ' + json.dumps(out["steps"]), text)
    TABLES_JSON.write_text(text + "\n")
    print(f"wrote {TABLES_JSON} ({len(tables)} ring sizes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
