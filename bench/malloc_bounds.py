#!/usr/bin/env python3
"""Blocks of a symbolic size against gcc with AddressSanitizer.

usage: python3 bench/malloc_bounds.py [--seed S] [--programs N] [--vcov PATH]

Writes N random programs that `malloc` a block of `n` elements (`n` an input, 0 to 5; `int`,
`short` or `char`), fill it and read it back with loops whose bounds are off by one now and then,
and call `reach_error` on some value. Each is run by `vcov verify` and, for every `n`, compiled by
gcc with `-fsanitize=address` and run. A row per program gives vcov's answer and what the runs
showed (a violation, an access out of bounds). It prints a table of the counts and exits 1 if a
TRUE disagrees with the runs (some `n` violates or reads or writes out of bounds): the one answer
gcc checks in full.

A FALSE whose violation no run shows is counted apart ("FALSE, no run violates"): vcov reads a byte
of the block never written as any value (C leaves it indeterminate), gcc's fresh blocks read 0.
"""

import argparse
import collections
import os
import random
import subprocess
import sys
import tempfile

MAX_N = 5

HEADER = """extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void abort(void);
void reach_error(void) { abort(); }
"""


def program(rng):
    """A random program and its element type."""
    fill_end = rng.choice(["n - 1", "n", "n", "n + 1"])
    read_end = rng.choice(["n - 1", "n", "n", "n + 1"])
    read_start = rng.choice(["0", "0", "1"])
    elem = rng.choice(["int", "short", "char"])
    op = rng.choice(["==", "!=", "<", ">"])
    k = rng.randint(0, 12)
    extra = rng.choice(["", "if (n > 2) x[2] = 5;", "if (n > 0) x[n - 1] = 7;", "x[0] = 1;"])
    return f"""{HEADER}int main(void) {{
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > {MAX_N}) return 0;
  {elem} *x = malloc(n * sizeof({elem}));
  for (int i = 0; i < {fill_end}; i++) x[i] = ({elem})(i * 3);
  {extra}
  for (int i = {read_start}; i < {read_end}; i++) if (x[i] {op} {k}) reach_error();
  return 0;
}}
"""


def runs(src, work):
    """Whether some `n` violates, and whether some `n` accesses out of bounds (gcc, ASan)."""
    harness = src.replace(
        "extern int __VERIFIER_nondet_int(void);", "static int n_; int __VERIFIER_nondet_int(void) { return n_; }"
    ).replace("int main(void) {", "static int program_main(void) {")
    harness += "#include <stdlib.h>\nint main(int argc, char **argv) { n_ = atoi(argv[1]); return program_main(); }\n"
    c, exe = os.path.join(work, "h.c"), os.path.join(work, "h")
    with open(c, "w") as f:
        f.write(harness)
    subprocess.run(["gcc", "-w", "-fsanitize=address", "-o", exe, c], check=True)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    violates = out_of_bounds = False
    for n in range(MAX_N + 1):
        p = subprocess.run([exe, str(n)], capture_output=True, text=True, env=env)
        if "AddressSanitizer" in p.stderr:
            out_of_bounds = True
        elif p.returncode != 0:
            violates = True
    return violates, out_of_bounds


def answer(vcov, path):
    out = subprocess.run([vcov, "verify", "--timelimit", "20", path], capture_output=True, text=True).stdout
    for word in ("TRUE", "FALSE"):
        if f"result: {word}" in out:
            return word
    return "UNKNOWN"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=100)
    ap.add_argument("--vcov", default="target/release/vcov")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counts = collections.Counter()
    wrong = []
    with tempfile.TemporaryDirectory() as work:
        for i in range(args.programs):
            src = program(rng)
            path = os.path.join(work, "p.c")
            with open(path, "w") as f:
                f.write(src)
            violates, oob = runs(src, work)
            got = answer(args.vcov, path)
            runs_say = "violation" if violates else "out of bounds" if oob else "clean"
            if got == "TRUE" and (violates or oob):
                wrong.append((i, src))
            if got == "FALSE" and not violates:
                runs_say = "no run violates"
            counts[(got, runs_say)] += 1
    print(f"| vcov    | runs of gcc -fsanitize=address | programs |")
    print(f"|---------|--------------------------------|----------|")
    for (got, runs_say), k in sorted(counts.items()):
        print(f"| {got:<7} | {runs_say:<30} | {k:>8} |")
    print(f"\nseed {args.seed}, {args.programs} programs: {len(wrong)} TRUE contradicted by a run")
    for i, src in wrong:
        print(f"--- program {i}\n{src}")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
