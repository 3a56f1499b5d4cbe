#!/usr/bin/env python3
"""Times parse + compose + Reach + over-approximation of `vcov coverage` (no executions) on the large
real automata of ../shared/corpus/cpachecker and prints a table (median of N runs, release build).

usage: bench/compose.py [--vcov target/release/vcov] [--runs 5] [CASE...]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "cpachecker")
DEFAULT = ["mem_slave_tlm.2-predicate", "keyspan_remote-explicit", "toy-value-10s", "gigaset.BUG-value-10s"]

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("cases", nargs="*", default=DEFAULT)
    a = ap.parse_args()
    if not os.path.exists(a.vcov):
        sys.exit(f"no binary at {a.vcov}: run cargo build --release")
    print(f"{'case':32} {'AA size':>9} {'states':>7} {'parse s':>8} {'compose s':>9} {'total s':>8} {'cpu s':>6}")
    for case in a.cases:
        d = os.path.join(CORPUS, case)
        aa = os.path.join(d, "AssumptionAutomaton.txt")
        if not os.path.exists(aa):
            print(f"{case:32} (not in the corpus)")
            continue
        rows = []
        with tempfile.TemporaryDirectory() as t:
            out = os.path.join(t, "r.json")
            for _ in range(a.runs):
                subprocess.run([a.vcov, "coverage", os.path.join(d, "program.c"), "--aa", aa, "--max-executions", "0",
                                "--json", out], check=True, capture_output=True)
                rows.append(json.load(open(out)))
        med = lambda k: statistics.median(r["time_seconds"][k] for r in rows)
        size = os.path.getsize(aa) / 1e6
        print(f"{case:32} {size:>7.2f}MB {rows[0]['automaton_match']['states']:>7} {med('parse'):>8.3f} "
              f"{med('compose'):>9.3f} {med('total'):>8.3f} {med('cpu'):>6.2f}")

if __name__ == "__main__":
    main()
