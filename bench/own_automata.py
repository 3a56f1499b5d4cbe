#!/usr/bin/env python3
"""Driver runs with frontiers nobody tuned for: for every driver program of a corpus directory
(default ../shared/corpus/cpachecker, programs with a `main` harness), interrupt `vcov verify` after
a few seconds and keep the region its search explored as an assumption automaton (`--aa-out`). Each
automaton goes with a copy of its program into OUT/NAME-vcov-Ns/, in the layout of the corpus, so
that `bench/drivers.py --corpus OUT` measures what `vcov coverage` decides on them.

  bench/own_automata.py --out /tmp/own --seconds 2,5
  bench/drivers.py --corpus /tmp/own --limits 60 --jobs 2

The automata differ from CPAchecker's in where their frontier lies (vcov's search order, not
CPAchecker's), so they test whether what decides lines on the shared runs depends on the shape of
CPAchecker's frontier. The program is the same: this is no substitute for other drivers.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vcov", default="target/release/vcov")
    ap.add_argument("--corpus", default="../shared/corpus/cpachecker")
    ap.add_argument("--out", required=True, help="folder to write the runs into")
    ap.add_argument("--seconds", default="2,5", help="limits of the interrupted verify runs, comma-separated")
    ap.add_argument("--min-bytes", type=int, default=200_000, help="only programs at least this large")
    args = ap.parse_args()
    programs = {}
    for run in sorted(glob.glob(os.path.join(args.corpus, "*"))):
        prog = os.path.join(run, "program.c")
        if os.path.isfile(prog) and os.path.getsize(prog) >= args.min_bytes:
            # One run per program: the value and predicate runs of a driver share it.
            name = os.path.basename(run).split("-")[0]
            programs.setdefault(name, prog)
    failed = 0
    for name, prog in sorted(programs.items()):
        for s in args.seconds.split(","):
            folder = os.path.join(args.out, "%s-vcov-%ss" % (name, s))
            os.makedirs(folder, exist_ok=True)
            shutil.copy(prog, os.path.join(folder, "program.c"))
            aa = os.path.join(folder, "AssumptionAutomaton.txt")
            r = subprocess.run([args.vcov, "verify", prog, "--timelimit", s, "--aa-out", aa],
                               capture_output=True, text=True)
            verdict = (r.stdout.strip().splitlines() or ["-"])[0]
            if not os.path.isfile(aa):
                failed += 1
                print("%-40s no automaton (exit %d): %s" % (os.path.basename(folder), r.returncode,
                                                            (r.stderr.strip().splitlines() or [""])[-1]))
                shutil.rmtree(folder)
                continue
            states = sum(1 for line in open(aa) if line.lstrip().startswith("STATE"))
            print("%-40s %s, %d states" % (os.path.basename(folder), verdict, states))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
