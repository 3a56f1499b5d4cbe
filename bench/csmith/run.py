#!/usr/bin/env python3
"""Differential testing of `vcov verify` against gcc on csmith programs (issue #14).

For every seed and csmith profile: generate a program, keep it if gcc's build (-O0, -m32 and -m64)
runs within the time limit and a UBSan build (-fsanitize=undefined,float-cast-overflow
-fno-sanitize-recover) runs clean with the same output. Every gcc build and preprocessing uses
vcov's floating-point model (SSE arithmetic with -m32 too: -msse2 -mfpmath=sse; -frounding-math),
so that profile `float` (csmith --float: float and double variables) compares the same IEEE
semantics. Then, per data model, make two self-contained tasks (gcc -E with the csmith headers)
whose final checksum print is replaced by a check against gcc's checksum:
  `if (checksum != GCC) reach_error();`  expected TRUE  (vcov must not find a different checksum)
  `if (checksum == GCC) reach_error();`  expected FALSE (vcov must find gcc's checksum)
and run `vcov verify --spec unreach-call --32/--64 --timelimit T` on each.

With `--check coverage` (or `verify,coverage`), each task also goes through `vcov coverage` with the
everything-explored automaton (assumption-automata/true.spc) and `--evidence`, and `vcov replay`
must confirm every test it wrote with gcc and gcov: coverage runs on the same semantics as verify,
and a claimed line gcc does not execute is a wrong claim. On the tasks whose gcc run reaches no
violation (expected TRUE), that run is a terminating execution: a line it executes that the report
calls not coverable is a wrong claim too (gcc --coverage, gcov's JSON), except a line that is a label
alone, which gcc executes where a goto lands and vcov (as CPAchecker) only when the code before it
falls through.

Prints a table per profile and data model (correct / unknown / wrong / crash; for coverage: tests
written and confirmed) and the UNKNOWN reasons grouped; `--csv FILE` writes one row per task. Exits 1
on a wrong verdict, an unconfirmed test or a crash (for CI), 0 otherwise, 3 when csmith is missing
(after saying so). Programs kept in `--work-dir` are reused by a later run with the same directory.

  bench/csmith/run.py --seeds 1-10 --timelimit 5              # CI-sized batch
  bench/csmith/run.py --seeds 1-200 --timelimit 20 --jobs 2 --csv raw.csv
  bench/csmith/run.py --seeds 1-200 --check coverage --work-dir W   # coverage on the same programs
  bench/csmith/run.py --profiles float --seeds 1-200 --timelimit 20 --check verify,coverage
"""

import argparse
import collections
import concurrent.futures
import csv
import os
import re
import shutil
import subprocess
import sys
import json
import tempfile

CSMITH_INCLUDE = "/usr/include/csmith"

# Small programs: vcov explores them path by path, so the default sizes mostly time out.
SIZE = ["--no-argc", "--max-funcs", "3", "--max-block-depth", "2", "--max-expr-complexity", "4"]

PROFILES = collections.OrderedDict(
    [
        ("default", []),
        ("no-pointers", ["--no-pointers"]),
        ("no-structs-unions", ["--no-structs", "--no-unions"]),
        ("no-arrays-bitfields", ["--no-arrays", "--no-bitfields"]),
        ("no-safe-math", ["--no-safe-math"]),
        # float and double variables and operations (csmith's safe math wraps them too: fabs, ldexp).
        ("float", ["--float"]),
    ]
)
# Without --profiles: the integer profiles, as the runs recorded before `float` existed.
DEFAULT_PROFILES = [p for p in PROFILES if p != "float"]


def gcc_model(bits):
    """gcc's flags for a data model: -m32/-m64 with vcov's floating-point model (SSE arithmetic,
    rounding modes honoured; `DataModel::gcc_float_flags` in src/cfront/types.rs), so that gcc's
    semantics are vcov's. Used by every gcc build and preprocessing here."""
    fp = ["-msse2", "-mfpmath=sse", "-frounding-math"] if bits == 32 else ["-frounding-math"]
    return ["-m%d" % bits] + fp

END_CALL = "platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);"
CHECKSUM_RE = re.compile(r"checksum = ([0-9A-F]+)")
# A line that is a label alone (csmith's `lbl_91:`). vcov counts it, as CPAchecker does, for the
# label's edge, which only the statement before it falls through; a `goto` lands after it. gcc gives
# the line the code where the jump lands: `if (c) goto L; s; L: t;` with c true executes line `L:` in
# gcov's view, not in vcov's, so such a line is no wrong not-coverable claim (vcov replay forgives
# the converse, `LineHints::labels`).
LABEL_LINE_RE = re.compile(r"^\s*(?!default\b)[A-Za-z_]\w*\s*:\s*$")


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    return seeds


def run(cmd, timeout, **kw):
    """(returncode or None on timeout, stdout, stderr)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace", **kw)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


def gcc_checksum(src, bits, workdir, timeout, sanitize):
    """gcc's checksum of `src` for -m{bits}, or (None, reason)."""
    exe = os.path.join(workdir, "a%d%s" % (bits, "u" if sanitize else ""))
    # float-cast-overflow (a floating value converted to an integer type out of its range, undefined
    # in C and cut by vcov as such) is not part of -fsanitize=undefined.
    flags = ["-fsanitize=undefined,float-cast-overflow", "-fno-sanitize-recover"] if sanitize else []
    rc, _, err = run(["gcc"] + gcc_model(bits) + ["-O0", "-w", "-I", CSMITH_INCLUDE] + flags + [src, "-o", exe, "-lm"],
                     120)
    if rc != 0:
        return None, "gcc%s -m%d cannot build it: %s" % (" (UBSan)" if sanitize else "", bits, err.strip()[:200])
    rc, out, err = run([exe], timeout)
    if rc is None:
        return None, "gcc -m%d: runs longer than %ss" % (bits, timeout)
    if rc != 0:
        return None, "gcc%s -m%d: exit %d %s" % (" (UBSan)" if sanitize else "", bits, rc, err.strip()[:200])
    m = CHECKSUM_RE.search(out)
    if not m:
        return None, "no checksum printed"
    return m.group(1), None


def make_task(src_text, bits, checksum, reach_if_equal, path):
    """Writes the preprocessed task; returns None or the reason it cannot be made."""
    op = "==" if reach_if_equal else "!="
    check = "if ((crc32_context ^ 0xFFFFFFFFUL) %s 0x%sUL) reach_error();" % (op, checksum)
    if src_text.count(END_CALL) != 1:
        return "checksum print not found"
    text = "void reach_error(void);\n" + src_text.replace(END_CALL, check)
    raw = path + ".raw.c"
    with open(raw, "w") as f:
        f.write(text)
    rc, out, err = run(["gcc"] + gcc_model(bits) + ["-E", "-P", "-I", CSMITH_INCLUDE, raw], 60)
    os.remove(raw)
    if rc != 0:
        return "gcc -E failed: " + err.strip()[:200]
    with open(path, "w") as f:
        f.write(out)
    return None


def verdict_of(vcov, task, bits, timelimit):
    """('TRUE'|'FALSE'|'UNKNOWN'|'CRASH', detail)."""
    cmd = [vcov, "verify", task, "--spec", "unreach-call", "--%d" % bits, "--timelimit", str(timelimit)]
    rc, out, err = run(cmd, timelimit * 3 + 30)
    if rc is None:
        return "CRASH", "did not stop after %ss" % (timelimit * 3 + 30)
    m = re.search(r"^Verification result: (TRUE|FALSE\(unreach-call\)|UNKNOWN \((.*)\))$", out, re.M)
    if rc != 0 or not m:
        return "CRASH", "exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:200])
    if m.group(1).startswith("UNKNOWN"):
        if m.group(2) == "internal error":
            return "CRASH", "internal error: " + " ".join(l for l in err.splitlines() if "panicked" in l)[:200]
        return "UNKNOWN", m.group(2)
    return ("FALSE" if m.group(1).startswith("FALSE") else "TRUE"), ""


def executed_lines(task, bits):
    """The lines gcc's build of `task` (reach_error defined to do nothing) executes, by gcov (each of
    whose blocks ran); None when it cannot be built or run."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.c")
        shutil.copy(task, src)
        stub = os.path.join(d, "stub.c")
        with open(stub, "w") as f:
            f.write("void reach_error(void) {}\n")
        exe = os.path.join(d, "t")
        rc, _, _ = run(["gcc"] + gcc_model(bits) + ["-O0", "-w", "--coverage", "-c", "t.c", "-o", "t.o"], 120, cwd=d)
        if rc != 0:
            return None
        rc, _, _ = run(["gcc"] + gcc_model(bits) + ["--coverage", "t.o", stub, "-o", exe, "-lm"], 120, cwd=d)
        if rc != 0:
            return None
        rc, _, _ = run([exe], 60, cwd=d)
        if rc is None:
            return None
        rc, out, _ = run(["gcov", "--stdout", "--json-format", "t.c"], 60, cwd=d)
        if rc != 0:
            return None
        lines = set()
        for doc in out.splitlines():
            if not doc.strip():
                continue
            for f in json.loads(doc).get("files", []):
                if os.path.basename(f.get("file", "")) == "t.c":
                    # A line some of whose blocks did not run (gcov's `1*`) is left out: gcc gives
                    # the function's shared return block the line of its first `return`.
                    lines.update(l["line_number"] for l in f.get("lines", [])
                                 if l.get("count", 0) > 0 and not l.get("unexecuted_block"))
        return lines


def coverage_of(vcov, task, bits, timelimit, true_aa, expected):
    """Coverage with everything explored, then `vcov replay` of its evidence, and, where gcc's run
    reaches no violation (`expected` TRUE), no line the report calls not coverable executed by it:
    ('CONFIRMED'|'UNCONFIRMED'|'UNKNOWN'|'CRASH', detail, tests written, tests confirmed)."""
    evidence = task + ".evidence"
    shutil.rmtree(evidence, ignore_errors=True)
    cmd = [vcov, "coverage", task, "--aa", true_aa, "--evidence", evidence, "--%d" % bits,
           "--timelimit", str(timelimit), "--no-progress", "--json", "-", "--continue-after-bug"]
    rc, out, err = run(cmd, timelimit * 3 + 30)
    if rc is None:
        return "CRASH", "coverage did not stop after %ss" % (timelimit * 3 + 30), 0, 0
    if rc != 0:
        return "CRASH", "coverage exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:200]), 0, 0
    report = json.loads(out)
    rc, out, err = run([vcov, "replay", task, evidence], 600)
    m = re.search(r"^replay: (\d+) tests, (\d+) confirmed", out, re.M)
    if rc is None or not m:
        return "CRASH", "replay exit %s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:200]), 0, 0
    written, confirmed = int(m.group(1)), int(m.group(2))
    if confirmed < written:
        bad = [l for l in out.splitlines() if "MISMATCH" in l]
        return "UNCONFIRMED", "; ".join(bad)[:300], written, confirmed
    if expected == "TRUE":
        executed = executed_lines(task, bits)
        if executed is None:
            return "CRASH", "gcc --coverage build or run failed", written, confirmed
        with open(task) as f:
            labels = {i + 1 for i, l in enumerate(f) if LABEL_LINE_RE.match(l)}
        wrong = sorted(int(l) for l, st in report.get("line_status", {}).items()
                       if st == "not_coverable" and int(l) in executed and int(l) not in labels)
        if wrong:
            by = report.get("not_coverable_by", {})
            return ("UNCONFIRMED", "not coverable but executed by gcc: %s" % ", ".join(
                "%d (%s)" % (l, by.get(str(l), "?")) for l in wrong[:5]), written, confirmed)
    if report.get("interrupted"):
        return "UNKNOWN", "search stopped by %s" % report.get("stopped_by"), written, confirmed
    return "CONFIRMED", "", written, confirmed


def reason_group(reason):
    """An UNKNOWN reason without the parts that vary per program (counts, lines, names)."""
    r = re.sub(r"^\d+ path\(s\) cut; first: ", "", reason)
    r = re.sub(r"\bline \d+\b", "line N", r)
    r = re.sub(r"-?\b\d+(\.\d+)?(e[+-]?\d+)?\b", "N", r)
    r = re.sub(r"'[^']*'", "'X'", r)
    return r[:100]


def prepare(args, profile, seed, root):
    """Generates and filters one program; returns (tasks, skip reason)."""
    d = os.path.join(root, profile, str(seed))
    os.makedirs(d, exist_ok=True)
    # v2: gcc with vcov's floating-point flags and UBSan with float-cast-overflow.
    done = os.path.join(d, "prepared-v2-%s.json" % "-".join(map(str, args.bits)))
    if os.path.exists(done):
        with open(done) as f:
            kept = json.load(f)
        return [tuple(t) for t in kept["tasks"]], kept["skipped"]
    tasks, why = prepare_anew(args, profile, seed, d)
    with open(done + ".tmp", "w") as f:
        json.dump({"tasks": tasks, "skipped": why}, f)
    os.replace(done + ".tmp", done)
    return tasks, why


def prepare_anew(args, profile, seed, d):
    """Generates and filters one program in `d`; returns (tasks, skip reason)."""
    src = os.path.join(d, "program.c")
    rc, _, err = run(["csmith", "--seed", str(seed)] + SIZE + PROFILES[profile] + ["-o", src], 60, cwd=d)
    if rc != 0:
        return [], "csmith failed: " + err.strip()[:200]
    with open(src) as f:
        text = f.read()
    tasks = []
    for bits in args.bits:
        plain, why = gcc_checksum(src, bits, d, args.gcc_timeout, False)
        if why:
            return [], why
        ubsan, why = gcc_checksum(src, bits, d, args.gcc_timeout * 4, True)
        if why:
            return [], why
        if ubsan != plain:
            return [], "UBSan build prints another checksum"
        for reach_if_equal in (True, False):
            name = "m%d_%s.i" % (bits, "eq" if reach_if_equal else "ne")
            path = os.path.join(d, name)
            why = make_task(text, bits, plain, reach_if_equal, path)
            if why:
                return [], why
            expected = "FALSE" if reach_if_equal else "TRUE"
            tasks.append((profile, seed, bits, path, expected))
    return tasks, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-10", help="seed ranges, e.g. 1-100,200 [default: 1-10]")
    ap.add_argument("--profiles", default=",".join(DEFAULT_PROFILES),
                    help="comma-separated, of: %s [default: %s]" % (", ".join(PROFILES), ",".join(DEFAULT_PROFILES)))
    ap.add_argument("--bits", default="32,64", help="data models [default: 32,64]")
    ap.add_argument("--timelimit", type=float, default=5, help="vcov's time limit per task in s [default: 5]")
    ap.add_argument("--gcc-timeout", type=float, default=3, help="gcc's run time limit in s [default: 3]")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs [default: CPUs]")
    ap.add_argument("--vcov", default=None, help="the vcov binary [default: target/release/vcov]")
    ap.add_argument("--work-dir", default=None, help="keep programs and tasks here [default: a temp dir]")
    ap.add_argument("--csv", default=None, help="write one row per task here")
    ap.add_argument("--check", default="verify", help="what to check: verify, coverage or both [default: verify]")
    args = ap.parse_args()
    checks = args.check.split(",")
    if not checks or any(c not in ("verify", "coverage") for c in checks):
        ap.error("--check takes verify, coverage or verify,coverage")
    args.bits = [int(b) for b in args.bits.split(",")]
    profiles = args.profiles.split(",")
    for p in profiles:
        if p not in PROFILES:
            ap.error("unknown profile %s" % p)
    if shutil.which("csmith") is None or not os.path.isdir(CSMITH_INCLUDE):
        print("csmith: SKIPPED: csmith or its headers (%s) are not installed" % CSMITH_INCLUDE, file=sys.stderr)
        return 3
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    vcov = args.vcov or os.path.join(repo, "target", "release", "vcov")
    if not os.access(vcov, os.X_OK):
        ap.error("%s is not an executable (cargo build --release)" % vcov)
    seeds = parse_seeds(args.seeds)
    root = args.work_dir or tempfile.mkdtemp(prefix="vcov-csmith-")
    os.makedirs(root, exist_ok=True)

    skipped = collections.Counter()
    tasks = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(prepare, args, p, s, root) for p in profiles for s in seeds]
        for fut in futs:
            t, why = fut.result()
            tasks.extend(t)
            if why:
                skipped[reason_group(why)] += 1
        results = []
        if "verify" in checks:
            results = list(ex.map(lambda t: t + verdict_of(vcov, t[3], t[2], args.timelimit), tasks))
        true_aa = os.path.join(repo, "assumption-automata", "true.spc")
        covered = []
        if "coverage" in checks:
            covered = list(ex.map(lambda t: t + coverage_of(vcov, t[3], t[2], args.timelimit, true_aa, t[4]), tasks))

    table = collections.OrderedDict()
    reasons = collections.Counter()
    reasons_cov = collections.Counter()
    bad = []
    for profile, seed, bits, path, expected, got, detail in results:
        row = table.setdefault((profile, bits), collections.Counter())
        row["tasks"] += 1
        if got == expected:
            row["correct"] += 1
        elif got == "UNKNOWN":
            row["unknown"] += 1
            reasons[reason_group(detail)] += 1
        elif got == "CRASH":
            row["crash"] += 1
            bad.append((path, "crash: " + detail))
        else:
            row["wrong"] += 1
            bad.append((path, "expected %s, vcov said %s" % (expected, got)))

    print("csmith %s; seeds %s; profiles %s; vcov --timelimit %s; programs in %s"
          % (subprocess.run(["csmith", "--version"], capture_output=True, text=True, cwd=root).stdout.split("\n")[0],
             args.seeds, ",".join(profiles), args.timelimit, root))
    print("%d programs generated, %d kept, %d tasks" % (len(profiles) * len(seeds),
                                                      len(profiles) * len(seeds) - sum(skipped.values()), len(tasks)))
    if results:
        print()
        print("| profile | model | tasks | correct | unknown | wrong | crash |")
        print("|---|---|---:|---:|---:|---:|---:|")
        total = collections.Counter()
        for (profile, bits), c in table.items():
            total.update(c)
            print("| %s | %dbit | %d | %d | %d | %d | %d |"
                  % (profile, bits, c["tasks"], c["correct"], c["unknown"], c["wrong"], c["crash"]))
        print("| all | | %d | %d | %d | %d | %d |"
              % (total["tasks"], total["correct"], total["unknown"], total["wrong"], total["crash"]))
        if reasons:
            print("\nUNKNOWN reasons:")
            for r, n in reasons.most_common():
                print("  %5d  %s" % (n, r))
    if skipped:
        print("\nprograms skipped:")
        for r, n in skipped.most_common():
            print("  %5d  %s" % (n, r))
    if covered:
        print()
        print("coverage with everything explored, evidence replayed by gcc (vcov replay):")
        print()
        print("| profile | model | tasks | confirmed | unknown | unconfirmed | crash | tests | tests confirmed |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        ctable = collections.OrderedDict()
        for profile, seed, bits, path, expected, got, detail, written, confirmed in covered:
            c = ctable.setdefault((profile, bits), collections.Counter())
            c["tasks"] += 1
            c[got.lower()] += 1
            c["written"] += written
            c["confirmed_tests"] += confirmed
            if got == "UNKNOWN":
                reasons_cov[reason_group(detail)] += 1
            if got in ("UNCONFIRMED", "CRASH"):
                bad.append((path, "coverage: %s: %s" % (got.lower(), detail)))
        ctotal = collections.Counter()
        for (profile, bits), c in ctable.items():
            ctotal.update(c)
            print("| %s | %dbit | %d | %d | %d | %d | %d | %d | %d |"
                  % (profile, bits, c["tasks"], c["confirmed"], c["unknown"], c["unconfirmed"], c["crash"],
                     c["written"], c["confirmed_tests"]))
        print("| all | | %d | %d | %d | %d | %d | %d | %d |"
              % (ctotal["tasks"], ctotal["confirmed"], ctotal["unknown"], ctotal["unconfirmed"], ctotal["crash"],
                 ctotal["written"], ctotal["confirmed_tests"]))
        if reasons_cov:
            print("\ncoverage UNKNOWN reasons:")
            for r, n in reasons_cov.most_common():
                print("  %5d  %s" % (n, r))
    if bad:
        print("\nWRONG OR CRASHED:")
        for path, what in bad:
            print("  %s: %s" % (path, what))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["profile", "seed", "bits", "task", "check", "expected", "outcome", "detail",
                        "tests", "tests_confirmed"])
            for profile, seed, bits, path, expected, got, detail in results:
                w.writerow([profile, seed, bits, os.path.basename(path), "verify", expected, got, detail, "", ""])
            for profile, seed, bits, path, expected, got, detail, written, confirmed in covered:
                w.writerow([profile, seed, bits, os.path.basename(path), "coverage", "CONFIRMED", got, detail,
                            written, confirmed])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
