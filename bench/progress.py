#!/usr/bin/env python3
"""Cost of the progress line: the same `vcov coverage` run with the progress line drawn on a terminal
(under `script`, which gives the process a pseudo-terminal) and with `--no-progress`, N times each,
interleaved; prints the median wall time and the search's paths per second of each.

usage: bench/progress.py [--runs 5] [--limit S] [--vcov target/release/vcov] [CASE...]
CASE names a folder of ../shared/corpus/cpachecker, or is PROGRAM:AUTOMATON (default:
keyspan_remote-explicit, and token_ring.08 of fse12 with the everything-explored automaton).
"""
import argparse, json, os, shlex, statistics, subprocess, tempfile, time

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus", "cpachecker")


def run(vcov, case, progress, limit):
    if ":" in case:
        program, automaton = case.split(":", 1)
    else:
        program = os.path.join(CORPUS, case, "program.c")
        automaton = os.path.join(CORPUS, case, "AssumptionAutomaton.txt")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [vcov, "coverage", program, "--aa", automaton, "--json", out, "--timelimit", str(limit)]
        if progress:
            argv = ["script", "-qec", " ".join(shlex.quote(c) for c in cmd), "/dev/null"]
        else:
            argv = cmd + ["--no-progress"]
        t = time.monotonic()
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall = time.monotonic() - t
        r = json.load(open(out))
        return wall, len(r["under_approximation"]["lines"]), r["under_approximation"]["executions"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--limit", type=float, default=20)
    ap.add_argument("--vcov", default="target/release/vcov")
    ap.add_argument("cases", nargs="*", default=[
        "keyspan_remote-explicit",
        os.path.join(CORPUS, "..", "fse12", "systemc", "token_ring.08.c") + ":assumption-automata/true.spc"])
    a = ap.parse_args()
    print(f"{'case':28} {'progress':>8} {'median s':>9} {'min s':>7} {'under':>6} {'exec':>5}")
    for case in a.cases:
        res = {True: [], False: []}
        for _ in range(a.runs):
            for p in (False, True):
                res[p].append(run(a.vcov, case, p, a.limit))
        for p in (False, True):
            walls = [w for w, _, _ in res[p]]
            print(f"{os.path.basename(case.split(':')[0]) if ':' in case else case:28} {'on' if p else 'off':>8} {statistics.median(walls):9.3f} {min(walls):7.3f} "
                  f"{res[p][0][1]:6} {res[p][0][2]:5}")


if __name__ == "__main__":
    main()
