#!/usr/bin/env python3
"""Time by phase (issue #26): `vcov coverage --timelimit S --json` on every run of
../shared/corpus/cpachecker, printing `time_seconds` of each report as a table: what comes before the
first path (parse, CFA, compose) and what runs beside or after it (value analysis, search, proof,
confirmation). The value analysis runs beside the search, so the first path starts after compose.

  bench/phases.py [--vcov PATH] [--limit 10] [--only NAME]

Exit status 1 when the phases before the search take 1 s or more on some run.
"""
import argparse, glob, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "cpachecker")
PHASES = ["parse", "cfa", "compose", "value_analysis", "search", "proof", "confirmation", "total", "cpu"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--limit", type=float, default=10)
    ap.add_argument("--only")
    a = ap.parse_args()
    runs = sorted(d for d in glob.glob(os.path.join(CORPUS, "*")) if os.path.exists(os.path.join(d, "AssumptionAutomaton.txt")))
    if a.only:
        runs = [d for d in runs if a.only in os.path.basename(d)]
    print("| run | lines | " + " | ".join(PHASES) + " | before search |")
    print("|---|---|" + "---|" * (len(PHASES) + 1))
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "r.json")
        for d in runs:
            prog = glob.glob(os.path.join(d, "program.*"))[0]
            lines = sum(1 for _ in open(prog, errors="replace"))
            if os.path.exists(out):
                os.remove(out)
            subprocess.run([a.vcov, "coverage", prog, "--aa", os.path.join(d, "AssumptionAutomaton.txt"),
                            "--timelimit", "%g" % a.limit, "--no-progress", "--json", out],
                           capture_output=True, timeout=a.limit + 120)
            try:
                t = json.load(open(out))["time_seconds"]
            except Exception:
                print("| %s | %d | no report |" % (os.path.basename(d), lines))
                bad += 1
                continue
            before = t.get("parse", 0) + t.get("cfa", 0) + t.get("compose", 0)
            bad += before >= 1.0
            cells = " | ".join("%.2f" % t.get(p, 0) for p in PHASES)
            print("| %s | %d | %s | %.2f |" % (os.path.basename(d), lines, cells, before), flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
