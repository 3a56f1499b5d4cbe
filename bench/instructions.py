#!/usr/bin/env python3
"""Instructions executed, not seconds: `vcov coverage PROGRAM --aa assumption-automata/true.spc` under
valgrind's callgrind for each program and each vcov binary, side by side (issue #32).

Wall and CPU times of runs that take 10 to 100 ms swing by several milliseconds with the machine's
load, the CPU's clock and where the pages land; the number of instructions a run executes does not
depend on any of them (callgrind runs the threads one after the other and counts every instruction
of every thread). So two binaries can be compared on a busy machine, to the instruction. What it
does not see: cache misses, waits between threads, page faults -- the seconds still come from
`bench/systemc.py` on an idle machine.

  bench/instructions.py --vcov /work/bin/vcov-0c24f95 --vcov target/release/vcov token_ring.0
  bench/instructions.py --vcov A --vcov B BUG            # every *BUG* program

Programs are those of ../shared/corpus/fse12/systemc whose name contains one of the given words
(all without). Prints a Markdown table: millions of instructions per binary, and the last binary's
against the first in percent. Exit status 1 when a run fails.
"""
import argparse, glob, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEMC = os.path.join(ROOT, "..", "shared", "corpus", "fse12", "systemc")
TRUE_AA = os.path.join(ROOT, "assumption-automata", "true.spc")


def instructions(vcov, program, work):
    """Instructions the run executed, from callgrind's summary (`None` if it failed)."""
    out = os.path.join(work, "callgrind.out")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", vcov, "coverage", program, "--aa",
           TRUE_AA, "--no-progress", "--json", os.path.join(work, "r.json")]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    m = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or not m:
        sys.stderr.write(f"{vcov} on {program}: exit {p.returncode}\n{p.stderr[-2000:]}\n")
        return None
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", action="append", required=True, help="a vcov binary (repeat to compare)")
    ap.add_argument("words", nargs="*", help="run the programs whose name contains one of these")
    a = ap.parse_args()
    programs = sorted(glob.glob(os.path.join(SYSTEMC, "*.c")))
    if a.words:
        programs = [p for p in programs if any(w in os.path.basename(p) for w in a.words)]
    names = [os.path.basename(v) for v in a.vcov]
    print("| program | " + " | ".join(f"{n} (M instr.)" for n in names) + " | last vs first |")
    print("|---|" + "---:|" * (len(names) + 1))
    failed = False
    with tempfile.TemporaryDirectory() as work:
        for program in programs:
            counts = [instructions(v, program, work) for v in a.vcov]
            failed |= any(c is None for c in counts)
            cells = ["-" if c is None else f"{c / 1e6:.1f}" for c in counts]
            first, last = counts[0], counts[-1]
            diff = f"{100.0 * (last - first) / first:+.1f}%" if first and last else "-"
            name = os.path.basename(program)[:-2]
            print(f"| {name} | " + " | ".join(cells) + f" | {diff} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
