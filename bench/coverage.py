#!/usr/bin/env python3
"""Paper-style table of `vcov coverage` (seed 002, Tables 1-2): for each instance and generation mode,
# lines, Over A., Under A., # exec, Bug?, CPU time and whether the result is exact.

AA sets:
  corpus  the real interrupted CPAchecker runs of ../shared/corpus/cpachecker (the instances of
          paper_tool_results.csv by default), with the paper's tool's best figure beside ours
  true    every program of ../shared/corpus/fse12/systemc with true_aa.spc (everything explored)
  dummy   the same programs with dummy_aa.spc (nothing explored: the under-approximation is empty)

Rows come from vcov's own `--csv` output. Runs are sequential so that CPU times are comparable.

usage: bench/coverage.py [--vcov target/release/vcov] [--set corpus|true|dummy] [--modes blind,guided,targeted]
                         [--limit 60] [--csv OUT] [INSTANCE...]
"""
import argparse, csv, glob, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
AUX = os.path.join(CORPUS, "cpachecker", "coverage-script-tests")


def instances(aa_set, names):
    """(instance, program, automaton, extra options, paper's figure or None)."""
    out = []
    if aa_set == "corpus":
        paper = {}
        with open(os.path.join(CORPUS, "cpachecker", "paper_tool_results.csv")) as f:
            for r in csv.DictReader(f):
                u = int(r["under"] or 0)
                if r["case"] not in paper or u > paper[r["case"]][0]:
                    paper[r["case"]] = (u, float(r["cpu_s"]))
        cases = names or sorted(paper)
        for case in cases:
            d = os.path.join(CORPUS, "cpachecker", case)
            progs = glob.glob(os.path.join(d, "program.*"))
            if not progs:
                sys.exit(f"no program in {d}")
            out.append((case, progs[0], os.path.join(d, "AssumptionAutomaton.txt"), [], paper.get(case)))
    else:
        aa = os.path.join(AUX, "true_aa.spc" if aa_set == "true" else "dummy_aa.spc")
        progs = sorted(glob.glob(os.path.join(CORPUS, "fse12", "systemc", "*.c")))
        for p in progs:
            name = os.path.basename(p)[:-2]
            if names and name not in names:
                continue
            # The systemc programs are 32-bit and use the ERROR label.
            out.append((name, p, aa, ["--32", "--spec", "errorlabel"], None))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--set", dest="aa_set", choices=["corpus", "true", "dummy"], default="corpus")
    ap.add_argument("--modes", default="blind,guided,targeted")
    ap.add_argument("--limit", type=int, default=60, help="--timelimit of each run, seconds")
    ap.add_argument("--csv", help="also keep vcov's CSV rows in this file")
    ap.add_argument("instances", nargs="*")
    a = ap.parse_args()
    if not os.path.exists(a.vcov):
        sys.exit(f"no binary at {a.vcov}: run cargo build --release")
    modes = a.modes.split(",")
    with tempfile.TemporaryDirectory() as t:
        table = a.csv or os.path.join(t, "rows.csv")
        header = f"{'instance':34} {'mode':9} {'# lines':>7} {'Over A.':>8} {'Under A.':>8} {'# exec':>6} {'Bug?':>4} " \
                 f"{'CPU s':>7} {'exact':>5}"
        if a.aa_set == "corpus":
            header += f" {'paper':>13}"
        print(header)
        for name, prog, aa, extra, paper in instances(a.aa_set, a.instances):
            for mode in modes:
                cmd = [a.vcov, "coverage", prog, "--aa", aa, "--generate", mode, "--timelimit", str(a.limit),
                       "--no-progress", "--csv", table, "--instance", f"{name}/{mode}", *extra]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"{name:34} {mode:9} failed: {(r.stderr.strip().splitlines() or ['?'])[-1][:100]}")
                    continue
                with open(table) as f:
                    row = list(csv.DictReader(f))[-1]
                line = f"{name:34} {mode:9} {row['lines']:>7} {row['over']:>8} {row['under']:>8} " \
                       f"{row['executions']:>6} {row['bug']:>4} {float(row['cpu_seconds']):>7.2f} " \
                       f"{'yes' if row['exact'] == 'true' else 'no':>5}"
                if paper is not None:
                    line += f" {paper[0]:>5} in {paper[1]:>4.0f}s"
                print(line, flush=True)


if __name__ == "__main__":
    main()
