#!/usr/bin/env python3
"""`vcov compare` against separate `vcov coverage` runs (issue #10): for the value/predicate pairs of
the shared corpus (token_ring.02, mem_slave_tlm.3, kbtab) and each value run against the
everything-explored automaton (coverage-script-tests/true_aa.spc), runs `vcov compare A B` and the two
`vcov coverage` runs one after the other with the same options, and prints per configuration the
lines over and under (compare / separate), whether each is exact, what compare gained from shared
executions, and the wall times.

  bench/compare_pairs.py                   # --timelimit 60
  bench/compare_pairs.py --timelimit 20

Exit status 0 when every configuration that is exact in its separate run has the same figures in
compare, 1 otherwise.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-500:]))
    return time.monotonic() - t


def figures(report):
    return (len(report["over_approximation"]["lines"]), len(report["under_approximation"]["lines"]), report["exact"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default="target/release/vcov")
    ap.add_argument("--corpus", default="../shared/corpus/cpachecker")
    ap.add_argument("--timelimit", type=int, default=60)
    a = ap.parse_args()
    c = a.corpus
    true_aa = os.path.join(c, "coverage-script-tests", "true_aa.spc")
    cases = []
    for p in ["token_ring.02", "mem_slave_tlm.3", "kbtab"]:
        v, q = "%s/%s-value-10s" % (c, p), "%s/%s-predicate-10s" % (c, p)
        cases.append((p + " value/predicate", v + "/program.c", [v + "/AssumptionAutomaton.txt", q + "/AssumptionAutomaton.txt"]))
        cases.append((p + " value/true_aa", v + "/program.c", [v + "/AssumptionAutomaton.txt", true_aa]))
    opts = ["--timelimit", str(a.timelimit), "--no-progress", "--reproducible"]
    ok = True
    print("%-30s %-30s %13s %13s %6s %7s %10s %10s" % ("case", "configuration", "over c/s", "under c/s", "exact",
                                                     "gained", "compare s", "separate s"))
    with tempfile.TemporaryDirectory() as work:
        for name, program, automata in cases:
            out = os.path.join(work, "c.json")
            t_compare = timed([a.vcov, "compare", program] + sum([["--aa", x] for x in automata], [])
                              + ["--name", "A", "--name", "B", "--json", out] + opts)
            together = json.load(open(out))["configurations"]
            t_separate = 0.0
            for k, aa in enumerate(automata):
                single = os.path.join(work, "s%d.json" % k)
                t_separate += timed([a.vcov, "coverage", program, "--aa", aa, "--json", single] + opts)
                s = json.load(open(single))
                cf, sf = figures(together[k]), figures(s)
                gained = sum(1 for e in together[k]["executions"] if e["origin"].startswith("found for "))
                same = cf == sf
                if sf[2] and not same:
                    ok = False
                label = os.path.basename(os.path.dirname(aa)) if aa != true_aa else "true_aa.spc"
                print("%-30s %-30s %6d/%-6d %6d/%-6d %6s %7d %10s %10s" % (
                    name if k == 0 else "", label, cf[0], sf[0], cf[1], sf[1],
                    "yes" if cf[2] else "no", gained, "%.2f" % t_compare if k == 0 else "",
                    "%.2f" % t_separate if k == 1 else ""))
    print("exact configurations equal their separate runs" if ok else "an exact configuration differs")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
