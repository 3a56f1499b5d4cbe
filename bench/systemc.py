#!/usr/bin/env python3
"""Bug finding and exactness on the paper's SystemC programs with everything explored (issue #32):
`vcov coverage PROGRAM --aa assumption-automata/true.spc` on every program of
../shared/corpus/fse12/systemc (or those named), for one or more vcov binaries side by side.

For each program and binary: whether the bug was found (`*BUG*` programs) or the result is exact
(the others), the property status, wall and CPU seconds and peak memory (of the vcov process, from
the kernel's accounting of that child). A `*BUG*` program without its bug, or another program that is
not exact, is marked `!`.

With `--repeat N` each program runs N times per binary, the binaries alternating (old, new, old,
new, ...), and the cells give the median of each figure; `--stats` adds the bytes per state-cache
entry that `--stats` prints (the growth of the resident set over the entries). `--program FILE`
adds programs from elsewhere (SV-COMP's token_ring.NN.cil-N.c).

  bench/systemc.py                                     # target/release/vcov, every program
  bench/systemc.py --vcov /tmp/vcov-old --vcov target/release/vcov token_ring transmitter
  bench/systemc.py --limit 60 --memory-limit 2048 --csv out.csv
  bench/systemc.py --vcov A --vcov B --repeat 3 --stats token_ring.0

Runs are sequential; run it on an otherwise idle machine (or compare CPU seconds). Exit status 1
when any row of the last binary is marked.
"""
import argparse, csv, glob, json, os, re, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEMC = os.path.join(ROOT, "..", "shared", "corpus", "fse12", "systemc")
TRUE_AA = os.path.join(ROOT, "assumption-automata", "true.spc")


def run(vcov, program, limit, memory, work, stats=False):
    """One run: a dict of the figures."""
    out = os.path.join(work, "r.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = [vcov, "coverage", program, "--aa", TRUE_AA, "--timelimit", str(limit), "--memory-limit", str(memory),
           "--no-progress", "--json", out] + (["--stats"] if stats else [])
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    stderr = p.stderr.read()
    # wait4 gives this child's own resource usage (peak memory included).
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t
    row = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}
    m = re.search(r"\((\d+) bytes per state-cache entry\)", stderr)
    entries = re.search(r"state cache entries: +(\d+)", stderr)
    if m:
        row["bytes_per_entry"] = int(m.group(1))
    if entries:
        row["entries"] = int(entries.group(1))
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
    ap.add_argument("--repeat", type=int, default=1, help="runs per program and binary, alternating (median)")
    ap.add_argument("--stats", action="store_true", help="also report bytes per state-cache entry (--stats)")
    ap.add_argument("--program", action="append", default=[], help="a program from elsewhere (repeat)")
    ap.add_argument("only", nargs="*", help="programs whose name contains one of these")
    a = ap.parse_args()
    vcovs = a.vcov or [os.path.join(ROOT, "target", "release", "vcov")]
    programs = sorted(glob.glob(os.path.join(SYSTEMC, "*.c")))
    if a.only or a.program:
        programs = [p for p in programs if any(o in os.path.basename(p) for o in a.only)]
    programs += a.program
    if not programs:
        sys.exit("no program found in %s" % SYSTEMC)
    rows, bad = [], False
    head = "| program | " + " | ".join(
        "%s: result, wall s, CPU s, peak MB%s" % (
            os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(v)))))
            if v.endswith("target/release/vcov") else os.path.basename(v), ", B/entry" if a.stats else "")
        for v in vcovs) + " |"
    print(head)
    print("|---|" + "---|" * len(vcovs))
    with tempfile.TemporaryDirectory() as work:
        for prog in programs:
            name = os.path.basename(prog)[:-2]
            is_bug = "BUG" in name
            cells = []
            runs = [[] for _ in vcovs]
            for _ in range(a.repeat):
                for k, v in enumerate(vcovs):
                    runs[k].append(run(v, prog, a.limit, a.memory_limit, work, a.stats))
            for k, v in enumerate(vcovs):
                row = dict(runs[k][0])
                for f in ("wall", "cpu", "rss_mb", "bytes_per_entry"):
                    if all(f in r for r in runs[k]):
                        row[f] = statistics.median(r[f] for r in runs[k])
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
                cells.append("%s%s, %.2f, %.2f, %.0f%s" % ("" if ok else "! ", res, row["wall"], row["cpu"],
                                                           row["rss_mb"],
                                                           (", %s" % ("%.0f" % row["bytes_per_entry"] if "bytes_per_entry" in row else "-"))
                                                           if a.stats else ""))
                rows.append(dict(program=name, vcov=v, **{k2: row.get(k2, "") for k2 in
                                                            ("bug", "exact", "property", "stopped_by", "wall",
                                                             "cpu", "rss_mb", "bytes_per_entry", "entries",
                                                             "error")}))
            print("| %s | %s |" % (name, " | ".join(cells)), flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
