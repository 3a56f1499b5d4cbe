#!/usr/bin/env python3
"""How reading and composing scale with the size of the program: generates programs of N small
functions, each called once from main (the shape of a large driver: many functions, short bodies),
and times `vcov cfa` and `vcov coverage --max-executions 0` (read, build the CFA, compose with the
"everything explored" automaton, report) on each. Wall time, the run's own parse/compose figures
and peak memory; a time that grows faster than the size shows a quadratic step.

  bench/scale.py                        # 1,000 to 40,000 functions
  bench/scale.py --sizes 5000 80000 --vcov target/release/vcov
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def program(n):
    """C text with `n` functions called in sequence from main."""
    parts = ["extern int __VERIFIER_nondet_int(void);\n"]
    parts += [f"int f{i}(int x) {{ if (x > {i}) return x - {i}; return x + {i}; }}\n" for i in range(n)]
    parts.append("int main(void) {\n  int s = __VERIFIER_nondet_int();\n")
    parts += [f"  s = f{i}(s);\n" for i in range(n)]
    parts.append("  return s;\n}\n")
    return "".join(parts)


def timed(cmd):
    """Runs `cmd` (output discarded) under GNU time: (wall seconds, peak resident MiB)."""
    with tempfile.NamedTemporaryFile("r") as peak:
        t = time.monotonic()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall = time.monotonic() - t
        return wall, int(peak.read().split()[-1]) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target/release/vcov"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000, 20000, 40000])
    a = ap.parse_args()
    aa = os.path.join(ROOT, "assumption-automata/true.spc")
    print(f"{'functions':>9} {'lines':>7} {'cfa s':>7} {'coverage s':>10} {'parse s':>8} {'compose s':>9} {'peak MiB':>8}")
    with tempfile.TemporaryDirectory() as d:
        for n in a.sizes:
            path = os.path.join(d, f"p{n}.c")
            with open(path, "w") as f:
                f.write(program(n))
            lines = sum(1 for _ in open(path))
            cfa_s, _ = timed([a.vcov, "cfa", path])
            out = os.path.join(d, f"p{n}.json")
            cov_s, peak = timed([a.vcov, "coverage", path, "--aa", aa, "--max-executions", "0",
                                 "--json", out, "--no-progress"])
            t = json.load(open(out))["time_seconds"]
            print(f"{n:>9,} {lines:>7,} {cfa_s:>7.2f} {cov_s:>10.2f} {t['parse']:>8.2f} {t['compose']:>9.2f} {peak:>8.0f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
