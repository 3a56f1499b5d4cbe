#!/usr/bin/env python3
"""Bug finding and exactness on the paper's SystemC programs with everything explored (issue #32):
`vcov coverage PROGRAM --aa assumption-automata/true.spc` on every program of
../shared/corpus/fse12/systemc (or those named), for one or more vcov binaries side by side.

For each program and binary: whether the bug was found (`*BUG*` programs) or the result is exact
(the others), the property status, wall and CPU seconds and peak memory (of the vcov process, from
the kernel's accounting of that child). A `*BUG*` program without its bug, or another program that is
not exact, is marked `!`.

  bench/systemc.py                                     # target/release/vcov, every program
  bench/systemc.py --vcov /tmp/vcov-old --vcov target/release/vcov token_ring transmitter
  bench/systemc.py --limit 60 --memory-limit 2048 --csv out.csv

Runs are sequential; run it on an otherwise idle machine. Exit status 1 when any row of the last
binary is marked.
"""
import argparse, csv, glob, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEMC = os.path.join(ROOT, "..", "shared", "corpus", "fse12", "systemc")
TRUE_AA = os.path.join(ROOT, "assumption-automata", "true.spc")


def run(vcov, program, limit, memory, work):
    """One run: a dict of the figures."""
    out = os.path.join(work, "r.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = [vcov, "coverage", program, "--aa", TRUE_AA, "--timelimit", str(limit), "--memory-limit", str(memory),
           "--no-progress", "--json", out]
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    stderr = p.stderr.read()
    # wait4 gives this child's own resource usage (peak memory included).
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t
    row = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}
    if p.returncode != 0 or not os.path.exists(out):
        row["error"] = "exit %s: %s" % (p.returncode, (stderr.strip().splitlines() or [""])[-1][:100])
        return row
    j = json.load(open(out))
    row.update(bug=j["bug_found"], exact=j["exact"], stopped_by=j.get("stopped_by") or "",
               property=(j.get("property") or {}).get("status", ""))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", action="append", help="binary (repeat to compare; default target/release/vcov)")
    ap.add_argument("--limit", type=int, default=30, help="--timelimit of each run (default 30)")
    ap.add_argument("--memory-limit", type=int, default=2048, help="--memory-limit in MB (default 2048)")
    ap.add_argument("--csv", help="also write the rows here")
    ap.add_argument("only", nargs="*", help="programs whose name contains one of these")
    a = ap.parse_args()
    vcovs = a.vcov or [os.path.join(ROOT, "target", "release", "vcov")]
    programs = sorted(glob.glob(os.path.join(SYSTEMC, "*.c")))
    if a.only:
        programs = [p for p in programs if any(o in os.path.basename(p) for o in a.only)]
    if not programs:
        sys.exit("no program found in %s" % SYSTEMC)
    rows, bad = [], False
    head = "| program | " + " | ".join(
        "%s: result, wall s, CPU s, peak MB" % os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(v)))))
        if v.endswith("target/release/vcov") else "%s: result, wall s, CPU s, peak MB" % os.path.basename(v)
        for v in vcovs) + " |"
    print(head)
    print("|---|" + "---|" * len(vcovs))
    with tempfile.TemporaryDirectory() as work:
        for prog in programs:
            name = os.path.basename(prog)[:-2]
            is_bug = "BUG" in name
            cells = []
            for k, v in enumerate(vcovs):
                row = run(v, prog, a.limit, a.memory_limit, work)
                if "error" in row:
                    res, ok = row["error"], False
                elif is_bug:
                    ok = row["bug"]
                    res = "bug (%s)" % row["property"] if ok else "no bug, %s" % (row["stopped_by"] or "ended")
                else:
                    ok = row["exact"]
                    res = "exact" if ok else "not exact, %s" % (row["stopped_by"] or "ended")
                if k == len(vcovs) - 1 and not ok:
                    bad = True
                cells.append("%s%s, %.2f, %.2f, %.0f" % ("" if ok else "! ", res, row["wall"], row["cpu"],
                                                         row["rss_mb"]))
                rows.append(dict(program=name, vcov=v, **{k2: row.get(k2, "") for k2 in
                                                            ("bug", "exact", "property", "stopped_by", "wall",
                                                             "cpu", "rss_mb", "error")}))
            print("| %s | %s |" % (name, " | ".join(cells)), flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
