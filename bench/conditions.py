#!/usr/bin/env python3
"""`vcov verify --condition` on CPAchecker's automata of the shared corpus (issue #31).

For each CPAchecker output folder: `vcov verify PROGRAM --spec errorlabel --condition AA
--timelimit L --aa-out OUT/NAME.txt`; the verdict must agree with the folder's name (`BUG` in it: a
violation exists). When the answer is UNKNOWN, `vcov coverage` (ErrorLabel, time limit C) measures
the original automaton and vcov's own, and the row shows their decided lines (covered or proven not
coverable) and over-approximations.

usage: bench/conditions.py [--vcov target/release/vcov] [--limit 60] [--cov-limit 30] [--out DIR] FOLDER...
Prints a Markdown table (one row per folder) and writes OUT/results.csv.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, timeout):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p, time.monotonic() - t


def coverage(vcov, program, aa, limit, report):
    p, _ = run([vcov, "coverage", program, "--aa", aa, "--spec", "errorlabel", "--timelimit", str(limit),
                "--json", report], limit + 120)
    if p.returncode != 0:
        return None
    d = json.load(open(report))
    st = d["line_status"].values()
    return (sum(1 for s in st if s in ("covered", "not_coverable")), sum(1 for s in st if s != "unexplored"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--cov-limit", type=float, default=30)
    ap.add_argument("--out", default="/tmp/vcov-conditions")
    ap.add_argument("folders", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    print("| run | expected | verdict | basis | time (s) | own AA states | decided: CPAchecker's AA / vcov's | over: CPAchecker's / vcov's | ok |")
    print("|---|---|---|---|---:|---:|---:|---:|---|")
    for folder in a.folders:
        name = os.path.basename(folder.rstrip("/"))
        program = os.path.join(folder, "program.c")
        aa = os.path.join(folder, "AssumptionAutomaton.txt")
        own = os.path.join(a.out, name + ".txt")
        expected = "FALSE" if "BUG" in name else "TRUE"
        p, secs = run([a.vcov, "verify", program, "--spec", "errorlabel", "--condition", aa, "--timelimit",
                       str(a.limit), "--aa-out", own], a.limit + 120)
        out = p.stdout
        verdict = next((l.split(":", 1)[1].strip() for l in out.splitlines() if l.startswith("Verification result:")), "ERROR")
        basis = next((l.split(":", 1)[1].strip() for l in out.splitlines() if l.startswith("Basis:")), "")
        states = next((l.rsplit("(", 1)[1].split()[0] for l in out.splitlines() if l.startswith("Explored region")), "-")
        short = verdict.split("(")[0]
        d0 = d1 = None
        if short.startswith("UNKNOWN") and os.path.exists(own):
            d0 = coverage(a.vcov, program, aa, a.cov_limit, os.path.join(a.out, name + ".orig.json"))
            d1 = coverage(a.vcov, program, own, a.cov_limit, os.path.join(a.out, name + ".own.json"))
        if short in ("TRUE", "FALSE"):
            ok = "yes" if short == expected else "WRONG"
        elif d0 and d1:
            ok = "yes (more decided)" if d1[0] > d0[0] else "no"
        else:
            ok = "no"
        dec = f"{d0[0]} / {d1[0]}" if d0 and d1 else "-"
        over = f"{d0[1]} / {d1[1]}" if d0 and d1 else "-"
        b = basis.replace("|", "/")
        print(f"| {name} | {expected} | {verdict} | {b} | {secs:.1f} | {states} | {dec} | {over} | {ok} |", flush=True)
        rows.append(dict(run=name, expected=expected, verdict=verdict, basis=basis, seconds=f"{secs:.1f}",
                         states=states, decided_orig=d0 and d0[0], decided_own=d1 and d1[0],
                         over_orig=d0 and d0[1], over_own=d1 and d1[1], ok=ok))
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
