#!/usr/bin/env python3
"""Evidence on the real CPAchecker runs (issue #9): for every run of a corpus directory
(default ../shared/corpus/cpachecker), `vcov coverage --evidence` within a time limit, `vcov replay`
of what it wrote, and `vcov coverage --confirm` (only executions gcc replays count). Prints one row
per run: tests written, tests confirmed by gcc and gcov, lines of the under-approximation without and
with --confirm, and the lines --confirm lost (those only unconfirmed executions covered).

  bench/replay_table.py --limit 60 --jobs 2            # the table of issue #9
  bench/replay_table.py --limit 10 --only kbtab        # runs whose name contains 'kbtab'

Exit status 0 when every test is confirmed, 1 otherwise.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out"


def one(vcov, run_dir, limit, work):
    name = os.path.basename(run_dir)
    program = os.path.join(run_dir, "program.c")
    aa = os.path.join(run_dir, "AssumptionAutomaton.txt")
    row = {"run": name}
    evidence = os.path.join(work, name + ".evidence")
    report = os.path.join(work, name + ".json")
    confirmed_report = os.path.join(work, name + ".confirm.json")
    base = [vcov, "coverage", program, "--aa", aa, "--timelimit", str(limit), "--no-progress"]
    rc, _, err = run(base + ["--evidence", evidence, "--json", report], limit * 3 + 60)
    if rc not in (0,):
        row["error"] = "coverage exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:160])
        return row
    j = json.load(open(report))
    row["under"] = len(j["under_approximation"]["lines"])
    row["over"] = len(j["over_approximation"]["lines"])
    row["stopped_by"] = j.get("stopped_by")
    if not os.path.isdir(evidence):
        row.update(tests=0, confirmed=0)
    else:
        rc, out, err = run([vcov, "replay", program, evidence], 1800)
        m = re.search(r"^replay: (\d+) tests, (\d+) confirmed", out, re.M)
        if not m:
            row["error"] = "replay exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:160])
            return row
        row["tests"], row["confirmed"] = int(m.group(1)), int(m.group(2))
        row["mismatches"] = [l for l in out.splitlines() if "MISMATCH" in l][:3]
    rc, _, err = run(base + ["--confirm", "--json", confirmed_report], limit * 3 + 600)
    if rc != 0:
        row["error"] = "coverage --confirm exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:160])
        return row
    c = json.load(open(confirmed_report))
    under_c = set(c["under_approximation"]["lines"])
    row["under_confirm"] = len(under_c)
    row["confirmation"] = c.get("confirmation")
    # With --confirm the under-approximation must be exactly the lines its executions cover.
    covered = set()
    for e in c.get("executions", []):
        covered.update(e["lines"])
    row["confirm_consistent"] = covered == under_c
    row["lost"] = sorted(set(j["under_approximation"]["lines"]) - under_c)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--corpus", default=os.path.join(repo, "..", "shared", "corpus", "cpachecker"))
    ap.add_argument("--vcov", default=os.path.join(repo, "target", "release", "vcov"))
    ap.add_argument("--limit", type=float, default=60, help="time limit of each search in s [default: 60]")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="runs whose name contains this")
    ap.add_argument("--json", default=None, help="write the rows here")
    args = ap.parse_args()
    if not os.path.isdir(args.corpus):
        print("replay table: SKIPPED: no corpus at %s" % args.corpus, file=sys.stderr)
        return 3
    runs = sorted(
        os.path.join(args.corpus, d)
        for d in os.listdir(args.corpus)
        if os.path.isfile(os.path.join(args.corpus, d, "AssumptionAutomaton.txt"))
        and (args.only is None or args.only in d)
    )
    work = tempfile.mkdtemp(prefix="vcov-replay-table-")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda r: one(args.vcov, r, args.limit, work), runs))
    shutil.rmtree(work, ignore_errors=True)
    print("vcov coverage --timelimit %s --evidence, vcov replay, vcov coverage --confirm (%d runs)\n"
          % (args.limit, len(rows)))
    print("| run | tests | confirmed | under | under --confirm | lost with --confirm | stopped by |")
    print("|---|---:|---:|---:|---:|---|---|")
    t = c = 0
    bad = False
    for r in rows:
        if "error" in r:
            print("| %s | error: %s | | | | | |" % (r["run"], r["error"]))
            bad = True
            continue
        t += r["tests"]
        c += r["confirmed"]
        bad |= r["confirmed"] < r["tests"] or not r["confirm_consistent"]
        lost = ", ".join(map(str, r["lost"][:8])) + (" ..." if len(r["lost"]) > 8 else "")
        print("| %s | %d | %d | %d | %d%s | %s | %s |" % (
            r["run"], r["tests"], r["confirmed"], r["under"], r["under_confirm"],
            "" if r["confirm_consistent"] else " (INCONSISTENT)", lost or "-", r["stopped_by"] or "-"))
    print("\n%d/%d tests confirmed by gcc and gcov" % (c, t))
    for r in rows:
        for m in r.get("mismatches", []):
            print("  %s: %s" % (r["run"], m))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
