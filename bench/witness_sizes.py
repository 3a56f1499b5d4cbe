#!/usr/bin/env python3
"""Witness sizes (issue #32): `vcov verify --witness` on every task of the shared corpus with a
violation — the SV-COMP tasks expected `false` (../shared/corpus/svcomp/tasks.csv) and the SystemC
programs named BUG (../shared/corpus/fse12/systemc) — and, with --lint, witnesslint on each witness;
for the SystemC programs also the witness of `vcov coverage PROGRAM --aa assumption-automata/true.spc`
(the bug its search meets, often on a longer path than verify's).

  bench/witness_sizes.py [--vcov PATH] [--old PATH] [--lint DIR-OF-witnesslinter.py] [--limit S]

Prints a markdown table (bytes of the witness, nodes, edges; the same for --old when given) and the
largest; exit status 1 when a FALSE answer has no witness, a witness is 1 MB or more, or witnesslint
rejects one.
"""
import argparse, csv, glob, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "corpus")


def tasks():
    with open(os.path.join(SHARED, "svcomp", "tasks.csv")) as f:
        for row in csv.DictReader(f):
            if row["expected_verdict"] == "false":
                program = os.path.join(SHARED, "svcomp", row["program"])
                yield row["task"], [program, "--task", os.path.join(SHARED, "svcomp", row["task"])], program
    for c in sorted(glob.glob(os.path.join(SHARED, "fse12", "systemc", "*BUG*.c"))):
        yield "systemc/" + os.path.basename(c), [c, "--spec", "errorlabel", "--32"], c


TRUE_AA = os.path.join(ROOT, "assumption-automata", "true.spc")


def coverage_witness(vcov, program, out, limit):
    """The witness `vcov coverage PROGRAM --aa true.spc` writes for the bug it finds (bytes, or None)."""
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([vcov, "coverage", program, "--aa", TRUE_AA, "--witness", out, "--timelimit", str(limit),
                    "--no-progress"], capture_output=True, timeout=limit + 60)
    return os.path.getsize(out) if os.path.exists(out) else None


def witness(vcov, task, out, limit):
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([vcov, "verify"] + task + ["--witness", out, "--timelimit", str(limit)],
                       capture_output=True, text=True, timeout=limit + 60)
    verdict = (p.stdout.strip().splitlines() or ["?"])[0]
    if not os.path.exists(out):
        return verdict, None, 0, 0
    text = open(out).read()
    return verdict, len(text.encode()), text.count("<node "), text.count("<edge ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--old", help="another vcov binary to compare against")
    ap.add_argument("--lint", help="folder holding witnesslinter.py (sv-witnesses/lint)")
    ap.add_argument("--python", default=sys.executable, help="python with lxml, for witnesslint")
    ap.add_argument("--limit", type=int, default=60)
    a = ap.parse_args()
    bad = 0
    head = ("| task | verdict | bytes | nodes | edges |" + (" old bytes | old nodes |" if a.old else "")
            + (" witnesslint |" if a.lint else "") + " coverage bytes |" + (" old coverage bytes |" if a.old else ""))
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    largest = 0
    with tempfile.TemporaryDirectory() as work:
        for name, task, program in tasks():
            out = os.path.join(work, "w.graphml")
            verdict, size, nodes, edges = witness(a.vcov, task, out, a.limit)
            row = "| %s | %s | %s | %d | %d |" % (name, verdict, size if size is not None else "none", nodes, edges)
            if verdict.startswith("FALSE"):
                if size is None or size >= 1_000_000:
                    bad += 1
            largest = max(largest, size or 0)
            if a.old:
                _, osize, onodes, _ = witness(a.old, task, os.path.join(work, "old.graphml"), a.limit)
                row += " %s | %d |" % (osize if osize is not None else "none", onodes)
            if a.lint:
                if size is None:
                    row += " - |"
                else:
                    p = subprocess.run([a.python, os.path.join(a.lint, "witnesslinter.py"), "--witness", out, program],
                                       capture_output=True, text=True)
                    m = re.search(r"exit code (\d+)", p.stdout + p.stderr)
                    code = m.group(1) if m else "?"
                    row += " %s |" % ("ok" if code == "0" else "exit " + code)
                    bad += code != "0"
            if name.startswith("systemc/"):
                cov = coverage_witness(a.vcov, program, os.path.join(work, "c.graphml"), a.limit)
                bad += cov is None or cov >= 1_000_000
                largest = max(largest, cov or 0)
                row += " %s |" % cov
                if a.lint and cov is not None:
                    p = subprocess.run([a.python, os.path.join(a.lint, "witnesslinter.py"), "--witness",
                                        os.path.join(work, "c.graphml"), program], capture_output=True, text=True)
                    if "exit code 0" not in p.stdout + p.stderr:
                        row += " (witnesslint rejects it)"
                        bad += 1
                if a.old:
                    row += " %s |" % coverage_witness(a.old, program, os.path.join(work, "oc.graphml"), a.limit)
            else:
                row += " - |" + (" - |" if a.old else "")
            print(row, flush=True)
    print("\nlargest witness: %d bytes" % largest)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
