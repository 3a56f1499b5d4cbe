#!/usr/bin/env python3
"""vcov's own automata of interrupted runs (issue #31): for SV-COMP tasks of the shared corpus and
each time limit, `vcov verify --task T --dfs --timelimit S --aa-out A`, then `vcov coverage` on A:
the over-approximation must contain every line the run visited (the automaton's `visited lines`
comment), and where the run finished (no transition into `__FALSE` in A) the result must be exact.

usage: bench/regions.py [--vcov target/release/vcov] [--limits 1,2,5] [--cov-limit 30] [--count 20] [--out DIR]
Prints a Markdown table (one row per task and limit).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "svcomp")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from region_check import visited  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--limits", default="1,2,5")
    ap.add_argument("--cov-limit", type=float, default=30)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--out", default="/tmp/vcov-regions")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    tasks = list(csv.DictReader(open(os.path.join(CORPUS, "tasks.csv"))))[: a.count]
    print("| task | limit (s) | verdict | states | visited | over | visited outside | finished | exact |")
    print("|---|---:|---|---:|---:|---:|---:|---|---|")
    bad = 0
    for t in tasks:
        for lim in a.limits.split(","):
            name = os.path.basename(t["task"])[:-4]
            aa = os.path.join(a.out, f"{name}-{lim}s.txt")
            p = subprocess.run([a.vcov, "verify", "--task", os.path.join(CORPUS, t["task"]), "--dfs", "--timelimit", lim,
                                "--aa-out", aa], capture_output=True, text=True, timeout=float(lim) + 120)
            verdict = next((l.split(":", 1)[1].strip() for l in p.stdout.splitlines()
                            if l.startswith("Verification result:")), "ERROR")
            states = next((l.rsplit("(", 1)[1].split()[0] for l in p.stdout.splitlines()
                           if l.startswith("Explored region")), "-")
            if not os.path.exists(aa):
                print(f"| {name} | {lim} | {verdict} | - | - | - | - | - | - |")
                bad += 1
                continue
            report = aa + ".json"
            dm = ["--64"] if t["data_model"] == "LP64" else []
            c = subprocess.run([a.vcov, "coverage", os.path.join(CORPUS, t["program"]), "--aa", aa, "--timelimit",
                                str(a.cov_limit), "--json", report] + dm, capture_output=True, text=True,
                               timeout=a.cov_limit + 120)
            if c.returncode != 0:
                print(f"| {name} | {lim} | {verdict} | {states} | coverage failed: {c.stderr.strip()[:80]} |")
                bad += 1
                continue
            d = json.load(open(report))
            over = {int(l) for l, s in d["line_status"].items() if s != "unexplored"}
            v = visited(aa)
            outside = len(v - over)
            # Finished: no MATCH transition leads out of the region (every state's last line,
            # `TRUE -> GOTO __FALSE;`, only catches edges the program does not have there).
            finished = re.search(r'^\s*MATCH .* GOTO __FALSE;$', open(aa).read(), re.M) is None
            exact = d["exact"]
            if outside or (finished and not exact):
                bad += 1
            print(f"| {name} | {lim} | {verdict} | {states} | {len(v)} | {len(over)} | {outside} | "
                  f"{'yes' if finished else 'no'} | {'yes' if exact else 'no'} |", flush=True)
    print(f"\n{bad} rows fail the check")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
