#!/usr/bin/env python3
"""A limit never loses a run (issue #26): `vcov coverage` on every run of ../shared/corpus/cpachecker
with `--timelimit` 1, 2, 3, 5 and 10, without and with `--confirm`. Every run must exit 0 with a
complete JSON report (`stopped_by` set when the limit stopped it), end within the limit + 1.5 s by
the clock, and use at most the limit + 1 s of CPU time (vcov's threads and the gcc runs it waited
for: `--timelimit` is CPU time, issue #53).

  bench/limits.py                              # the whole table (about half an hour)
  bench/limits.py --limits 2,5 --only drivers  # runs over 1000 lines only
  bench/limits.py --busy 2                     # the same with two busy loops beside it

Prints one row per run and limit; exit status 1 when any run broke the rule.
"""
import argparse, glob, json, multiprocessing, os, resource, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "cpachecker")


def busy():
    while True:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--limits", default="1,2,3,5,10")
    ap.add_argument("--only", help="runs whose name contains this ('drivers': programs over 1000 lines)")
    ap.add_argument("--busy", type=int, default=0, help="busy loops to run beside (default 0)")
    ap.add_argument("--no-confirm", action="store_true", help="skip the --confirm runs")
    a = ap.parse_args()
    runs = sorted(d for d in glob.glob(os.path.join(CORPUS, "*")) if os.path.exists(os.path.join(d, "AssumptionAutomaton.txt")))
    if a.only == "drivers":
        runs = [d for d in runs if sum(1 for _ in open(glob.glob(os.path.join(d, "program.*"))[0], errors="replace")) > 1000]
    elif a.only:
        runs = [d for d in runs if a.only in os.path.basename(d)]
    loops = [multiprocessing.Process(target=busy, daemon=True) for _ in range(a.busy)]
    for p in loops:
        p.start()
    bad = 0
    print("| run | limit s | --confirm | exit | wall s | CPU s | CPU over limit s | stopped_by | report |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for d in runs:
            prog = glob.glob(os.path.join(d, "program.*"))[0]
            aa = os.path.join(d, "AssumptionAutomaton.txt")
            for limit in [float(x) for x in a.limits.split(",")]:
                for confirm in ([False] if a.no_confirm else [False, True]):
                    out = os.path.join(work, "r.json")
                    if os.path.exists(out):
                        os.remove(out)
                    cmd = [a.vcov, "coverage", prog, "--aa", aa, "--timelimit", "%g" % limit, "--no-progress",
                           "--json", out] + (["--confirm"] if confirm else [])
                    t = time.monotonic()
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=limit + 120)
                    wall = time.monotonic() - t
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
                    try:
                        j = json.load(open(out))
                        report = "complete" if "line_status" in j and "property" in j else "partial"
                        stopped = j.get("stopped_by") or "-"
                    except Exception:
                        report, stopped = "none: " + (p.stderr.strip().splitlines() or [""])[-1][:80], "-"
                    ok = p.returncode == 0 and report == "complete" and wall <= limit + 1.5 and cpu <= limit + 1
                    bad += not ok
                    print("| %s%s | %g | %s | %d | %.2f | %.2f | %+.2f | %s | %s |" % (
                        "" if ok else "! ", os.path.basename(d), limit, "yes" if confirm else "no", p.returncode,
                        wall, cpu, cpu - limit, stopped, report), flush=True)
    print("\n%d run(s) broke the rule" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
