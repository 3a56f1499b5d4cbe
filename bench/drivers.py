#!/usr/bin/env python3
"""Progress on the Linux drivers (issue #13): for every run of a corpus directory (default
../shared/corpus/cpachecker) whose program has more than 1000 lines to cover, `vcov coverage
--generate targeted` with several time limits (default 5, 15, 30 and 60 s). Prints one row per run
and limit: lines of the over-approximation, covered, proven not coverable (with the arguments named
in the report's `not_coverable_by`, when it has them), left undecided, the share decided, the lines
decided under the assumptions the run did not accept (`decided_assuming`: `+N NAMES`), and why the
result is not exact.

  bench/drivers.py                         # the table of issue #13 (about 20 minutes with 1 job)
  bench/drivers.py --limits 30 --jobs 2    # one column
  bench/drivers.py --only lirc --csv t.csv # runs whose name contains 'lirc', rows also to t.csv
  bench/drivers.py --assume fresh-pointers,no-extern-writes,unmodelled-library   # relative to those

Run on a machine that is otherwise idle: a search's progress within a time limit depends on the CPU
it gets. Exit status 0 when every run decides at least 95% of its over-approximation at the largest
limit, 1 otherwise.
"""

import argparse
import collections
import concurrent.futures
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile


def measure(vcov, run_dir, limit, work, assume, alias_links):
    """One `vcov coverage` run; a dict of the figures, or of the error."""
    name = os.path.basename(run_dir)
    program = sorted(glob.glob(os.path.join(run_dir, "program.*")))[0]
    aa = os.path.join(run_dir, "AssumptionAutomaton.txt")
    report = os.path.join(work, "%s.%d.json" % (name, limit))
    cmd = [vcov, "coverage", program, "--aa", aa, "--generate", "targeted", "--timelimit", str(limit),
           "--no-progress", "--json", report] + (["--assume", assume] if assume else []) \
        + ([] if alias_links else ["--no-alias-links"])
    row = {"run": name, "limit": limit}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 120, errors="replace")
    except subprocess.TimeoutExpired:
        row["error"] = "did not end within %d s" % (limit + 120)
        return row
    if p.returncode != 0 or not os.path.exists(report):
        row["error"] = "exit %s: %s" % (p.returncode, (p.stderr.strip().splitlines() or [""])[-1][:160])
        return row
    j = json.load(open(report))
    status = collections.Counter(j["line_status"].values())
    row.update(
        lines=len(j["lines_to_cover"]),
        over=len(j["over_approximation"]["lines"]),
        covered=status["covered"],
        not_coverable=status["not_coverable"],
        exact=j["exact"],
        stopped_by=j.get("stopped_by") or "",
        reason=j.get("inexact_reason") or "",
        by="; ".join(sorted(set(j.get("not_coverable_by", {}).values()))),
        ub=j.get("undefined_behaviour", {}).get("paths", 0),
        # What the run decides under the assumptions it did not accept (`decided_assuming`).
        assuming=",".join(a["name"] for d in j.get("decided_assuming", []) for a in d["assumptions"]),
        decided_assuming=sum(len(d["line_status"]) for d in j.get("decided_assuming", [])),
    )
    row["undecided"] = row["over"] - row["covered"] - row["not_coverable"]
    row["decided"] = (row["covered"] + row["not_coverable"]) / row["over"] if row["over"] else 1.0
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default="target/release/vcov")
    ap.add_argument("--corpus", default="../shared/corpus/cpachecker")
    ap.add_argument("--limits", default="5,15,30,60", help="time limits in seconds, comma-separated")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (more than 1 shares the CPU)")
    ap.add_argument("--only", default="", help="only runs whose folder name contains this")
    ap.add_argument("--min-lines", type=int, default=1000, help="only programs with more lines to cover")
    ap.add_argument("--csv", help="also write the rows to this CSV file")
    ap.add_argument("--assume", default="", help="vcov's --assume: environment assumptions accepted")
    ap.add_argument("--no-alias-links", action="store_true", help="vcov's --no-alias-links")
    a = ap.parse_args()
    if not os.path.exists(a.vcov):
        sys.exit("no vcov binary at %s: run cargo build --release, or pass --vcov" % a.vcov)
    limits = [int(x) for x in a.limits.split(",")]
    runs = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(a.corpus, "*", "AssumptionAutomaton.txt"))
                  if a.only in os.path.basename(os.path.dirname(p)))
    # Lines to cover decide which runs are drivers: ask vcov without a search.
    drivers = []
    with tempfile.TemporaryDirectory() as work:
        for r in runs:
            program = sorted(glob.glob(os.path.join(r, "program.*")))[0]
            out = os.path.join(work, "lines.json")
            p = subprocess.run([a.vcov, "coverage", program, "--aa", os.path.join(r, "AssumptionAutomaton.txt"),
                                "--max-executions", "0", "--no-progress", "--json", out],
                               capture_output=True, text=True, errors="replace")
            if p.returncode == 0 and len(json.load(open(out))["lines_to_cover"]) > a.min_lines:
                drivers.append(r)
        jobs = [(r, l) for r in drivers for l in limits]
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            rows = list(pool.map(lambda rl: measure(a.vcov, rl[0], rl[1], work, a.assume, not a.no_alias_links), jobs))
    cols = ["run", "limit", "over", "covered", "not_coverable", "undecided", "decided", "decided_assuming",
            "assuming", "exact", "stopped_by", "by", "reason"]
    print("%-32s %5s %6s %7s %8s %9s %7s %9s  %s" % ("run", "limit", "over", "covered", "not cov.", "undecided",
                                                     "decided", "assuming", "why not exact"))
    for r in rows:
        if "error" in r:
            print("%-32s %4ds  ERROR %s" % (r["run"], r["limit"], r["error"]))
            continue
        why = "exact" if r["exact"] else (r["reason"][:70])
        # `+N X`: N more lines decided assuming X (`decided_assuming`).
        assuming = "+%d %s" % (r["decided_assuming"], r["assuming"]) if r["decided_assuming"] else "-"
        print("%-32s %4ds %6d %7d %8d %9d %6.1f%% %9s  %s" % (r["run"], r["limit"], r["over"], r["covered"],
                                                              r["not_coverable"], r["undecided"], 100 * r["decided"],
                                                              assuming, why))
    top = max(limits)
    last = [r for r in rows if r["limit"] == top]
    good = [r for r in last if "error" not in r and r["decided"] >= 0.95]
    print("at %d s: %d of %d driver runs decide at least 95%% of their over-approximation" % (top, len(good), len(last)))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols + ["lines", "error"], extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    sys.exit(0 if len(good) == len(last) else 1)


if __name__ == "__main__":
    main()
