#!/usr/bin/env python3
"""TestCov on the Test-Comp suites vcov writes (issue #9): for the shared SV-COMP tasks (everything
explored, assumption-automata/true.spc) and the SystemC runs of ../shared/corpus/cpachecker (their
own automata), `vcov coverage --evidence` writes a suite; TestCov (the Test-Comp validator, PyPI
`testcov`, run with --no-isolation) must run it with no error, every test must end as vcov
recorded, and each line `vcov replay` confirmed for a test must be executed when the program is
compiled with TestCov's own harness and fed the test's Test-Comp inputs (gcc --coverage, gcov):
TestCov's harness follows vcov's path. Tests whose path depends on bytes of uninitialized memory
(`uninitialized_memory` in vcov-claims.json; no Test-Comp harness sets them) are counted apart.

  python3 -m venv tc && tc/bin/pip install testcov     # also needs lcov, gcc-multilib, clang-tidy
  bench/testcov.py --testcov tc/bin/testcov --jobs 2

Prints one row per suite and a total; exit status 0 when every check holds.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

SYSTEMC = ("token_ring", "mem_slave", "pc_sfifo", "toy", "kundu", "transmitter")


def run(cmd, timeout, **kw):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace", **kw)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out"


def test_inputs(path):
    """The <input> values of a Test-Comp test file, in order."""
    return [i.text or "" for i in ET.parse(path).getroot().iter("input")]


def check_suite(args, name, program, automaton, bits, work):
    row = {"suite": name, "bits": bits}
    d = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    os.makedirs(d)
    # TestCov writes beside the program it is given (PROGRAM.i): give it a copy, never the corpus.
    copy = os.path.join(d, os.path.basename(program))
    shutil.copy(program, copy)
    program = copy
    ev = os.path.join(d, "suite")
    rc, _, err = run([args.vcov, "coverage", program, "--aa", automaton, "--evidence", ev, "--%d" % bits,
                      "--timelimit", str(args.limit), "--no-progress"], args.limit * 3 + 60)
    if rc != 0:
        row["error"] = "vcov coverage exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:120])
        return row
    claims = json.load(open(os.path.join(ev, "vcov-claims.json")))["tests"]
    row["tests"] = len(claims)
    if not claims:
        return row
    # vcov's own replay: the lines gcov confirmed per test.
    rc, out, _ = run([args.vcov, "replay", program, ev, "--verbose"], 1800)
    confirmed = {}
    for line in out.splitlines():
        m = re.match(r"^(test\d+\.xml): ok, \d+ lines confirmed(?: \(([\d, ]+)\))?", line)
        if m:
            confirmed[m.group(1)] = [int(x) for x in (m.group(2) or "").split(", ") if x]
    row["vcov_replay_ok"] = len(confirmed)
    # TestCov on the suite (zip of metadata.xml and the test files, as Test-Comp ships suites).
    zpath = os.path.join(d, "suite.zip")
    with zipfile.ZipFile(zpath, "w") as z:
        for f in sorted(os.listdir(ev)):
            if f == "metadata.xml" or re.match(r"test\d+\.xml$", f):
                z.write(os.path.join(ev, f), f)
    out_dir = os.path.join(d, "testcov")
    rc, out, err = run([args.testcov, "--no-isolation", "--no-plots", "--test-suite", zpath, "--output", out_dir,
                        "-%d" % bits, "--timelimit-per-run", "10", program], 1800, cwd=d)
    result = re.search(r"^Result: (\S+)", out, re.M)
    row["testcov"] = result.group(1) if result else "no result (exit %s)" % rc
    try:
        results = json.load(open(os.path.join(out_dir, "results.json")))
    except (OSError, ValueError):
        results = []
    log = open(os.path.join(out_dir, "testcov.log"), errors="replace").read() if os.path.exists(
        os.path.join(out_dir, "testcov.log")) else ""
    row["parse_errors"] = len(re.findall(r"ERROR:suite_validation|ParseError|could not parse", log))
    row["testcov_ran"] = len(results)
    # How each test ended: main's return for terminating tests, a violation for the bug.
    ends_ok = 0
    by_file = {r["Test"]: r for r in results}
    for c in claims:
        r = by_file.get(c["file"])
        if r is None:
            continue
        rcode = r.get("Returncode")
        if c.get("violates_property"):
            # reach_error (or __assert_fail) ends the run abnormally under TestCov's harness, a label
            # ERROR with `goto ERROR;` never ends: not a return from main either way.
            ok = not (isinstance(rcode, int) and rcode == 0 and r.get("Execution success"))
        else:
            ok = r.get("Execution success") and isinstance(rcode, int) and rcode >= 0
        ends_ok += bool(ok)
    row["ends_ok"] = ends_ok
    # TestCov's harness, compiled with the program under gcc --coverage, fed each test's inputs.
    harness = os.path.join(out_dir, "harness.c")
    build = os.path.join(d, "build")
    os.makedirs(build)
    shutil.copy(program, os.path.join(build, "program.c"))
    shutil.copy(harness, os.path.join(build, "harness.c"))
    # Compiled apart and linked, so that gcov's data is program.gcda.
    rc, _, err = run(["gcc", "-m%d" % bits, "--coverage", "-O0", "-w", "-c", "program.c"], 300, cwd=build)
    if rc == 0:
        rc, _, err = run(["gcc", "-m%d" % bits, "--coverage", "-O0", "-w", "-DGCOV", "-c", "harness.c"], 300,
                         cwd=build)
    if rc == 0:
        rc, _, err = run(["gcc", "-m%d" % bits, "--coverage", "program.o", "harness.o", "-o", "p"], 300, cwd=build)
    lines_ok = lines_checked = uninit = 0
    mismatches = []
    if rc != 0:
        row["error"] = "gcc with TestCov's harness: " + (err.strip().splitlines() or [""])[0][:120]
        return row
    for c in claims:
        if c.get("uninitialized_memory"):
            uninit += 1
            continue
        if c.get("violates_property"):
            # A bug's run does not return (SystemC programs loop at their label ERROR): its end is
            # checked above from TestCov's own run.
            continue
        f = c["file"]
        if f not in confirmed:
            continue
        for stale in ("program.gcda", "harness.gcda"):
            if os.path.exists(os.path.join(build, stale)):
                os.remove(os.path.join(build, stale))
        values = test_inputs(os.path.join(ev, f))
        try:
            subprocess.run(["./p"], input="\n".join(values) + "\n", cwd=build, capture_output=True, text=True,
                           timeout=20)
        except subprocess.TimeoutExpired:
            mismatches.append("%s: timeout" % f)
            continue
        rc, out, _ = run(["gcov", "--stdout", "--json-format", "program.gcda"], 120, cwd=build)
        counts = {}
        try:
            for doc in out.splitlines():
                if doc.strip().startswith("{"):
                    for fl in json.loads(doc)["files"]:
                        if os.path.basename(fl["file"]) == "program.c":
                            for l in fl["lines"]:
                                counts[l["line_number"]] = counts.get(l["line_number"], 0) + l["count"]
        except ValueError:
            pass
        lines_checked += 1
        missing = [l for l in confirmed[f] if counts.get(l, 0) == 0]
        if missing:
            mismatches.append("%s: lines not executed under TestCov's harness: %s" % (f, missing[:10]))
        else:
            lines_ok += 1
    row.update(lines_checked=lines_checked, lines_ok=lines_ok, uninit=uninit, mismatches=mismatches)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = os.path.join(repo, "..", "shared", "corpus")
    ap.add_argument("--corpus", default=corpus)
    ap.add_argument("--vcov", default=os.path.join(repo, "target", "release", "vcov"))
    ap.add_argument("--testcov", default=shutil.which("testcov") or "testcov")
    ap.add_argument("--limit", type=float, default=20, help="vcov's time limit per suite in s [default: 20]")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="suites whose name contains this")
    args = ap.parse_args()
    if not os.path.exists(args.testcov) and shutil.which(args.testcov) is None:
        print("testcov: SKIPPED: TestCov not found (--testcov)", file=sys.stderr)
        return 3
    true_aa = os.path.join(repo, "assumption-automata", "true.spc")
    suites = []
    svcomp = os.path.join(args.corpus, "svcomp")
    with open(os.path.join(svcomp, "tasks.csv")) as f:
        for t in csv.DictReader(f):
            bits = 64 if t["data_model"] == "LP64" else 32
            suites.append(("svcomp/" + t["program"], os.path.join(svcomp, t["program"]), true_aa, bits))
    cpa = os.path.join(args.corpus, "cpachecker")
    for r in sorted(os.listdir(cpa)):
        if r.startswith(SYSTEMC):
            suites.append(("cpachecker/" + r, os.path.join(cpa, r, "program.c"),
                           os.path.join(cpa, r, "AssumptionAutomaton.txt"), 32))
    if args.only:
        suites = [s for s in suites if args.only in s[0]]
    work = tempfile.mkdtemp(prefix="vcov-testcov-")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda s: check_suite(args, *s, work), suites))
    print("| suite | tests | TestCov | ran | parse errors | ended as recorded | lines confirmed / checked | uninitialized memory |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    tot = {"tests": 0, "ran": 0, "parse": 0, "ends": 0, "ok": 0, "checked": 0, "uninit": 0}
    bad = False
    for r in rows:
        if "error" in r:
            print("| %s | error: %s | | | | | | |" % (r["suite"], r["error"]))
            bad = True
            continue
        if not r.get("tests"):
            print("| %s | 0 | - | | | | | |" % r["suite"])
            continue
        tot["tests"] += r["tests"]
        tot["ran"] += r["testcov_ran"]
        tot["parse"] += r["parse_errors"]
        tot["ends"] += r["ends_ok"]
        tot["ok"] += r["lines_ok"]
        tot["checked"] += r["lines_checked"]
        tot["uninit"] += r["uninit"]
        bad |= (r["parse_errors"] > 0 or r["testcov_ran"] < r["tests"] or r["ends_ok"] < r["testcov_ran"]
                or r["lines_ok"] < r["lines_checked"])
        print("| %s | %d | %s | %d | %d | %d | %d / %d | %d |" % (
            r["suite"], r["tests"], r["testcov"], r["testcov_ran"], r["parse_errors"], r["ends_ok"],
            r["lines_ok"], r["lines_checked"], r["uninit"]))
    print("| all | %d | | %d | %d | %d | %d / %d | %d |" % (
        tot["tests"], tot["ran"], tot["parse"], tot["ends"], tot["ok"], tot["checked"], tot["uninit"]))
    for r in rows:
        for m in r.get("mismatches", []):
            print("  %s: %s" % (r["suite"], m))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
