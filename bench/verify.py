#!/usr/bin/env python3
"""Benchmark of `vcov verify` over the SV-COMP tasks and the SystemC programs of the shared corpus.

usage: bench/verify.sh [--limit S] [--jobs N] [--modes default,fi,pi,bfs] [--filter REGEX] [--no-build]
                      [--list TASKS.csv --root DIR] [--vcov PATH]

For every mode (default: `vcov verify` as it is run, the portfolio; fi: full-incremental DFS alone;
pi: partial-incremental DFS; bfs: full-incremental BFS) it runs the release binary on each task with the time limit and --stats, and
prints one table row per task: task, expected verdict, result, CPU time (user + system of the
process), paths explored, solver calls, and the share of the exploration's time spent in the SAT
solver, and the engine that decided (`Decided by:` of `--stats`). A summary per mode gives correct and wrong answers and the SV-COMP 2016 score
(+2 true, +1 false, -16 false alarm, -32 wrong proof). Run it from the crate root; it reads
../shared/corpus, or with `--list` a table of task definitions (columns `task`, `expected_verdict`;
paths relative to `--root`), such as `bench/loop-tasks.csv` (sv-benchmarks loop tasks, kept outside
the repository). `--vcov` measures another binary (say, main's) instead of building this one.
"""
import argparse, csv, glob, os, re, subprocess, sys, threading, time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
if not os.path.isdir(CORPUS):
    CORPUS = "/work/shared/corpus"
MODES = {"default": [], "fi": ["--dfs"], "pi": ["--partial-incremental"], "bfs": ["--bfs"]}


def listed(path, root):
    res = []
    for r in csv.DictReader(open(path)):
        res.append((r["task"], r["expected_verdict"], ["--task", os.path.join(root, r["task"])]))
    return res


def tasks():
    res = []
    root = os.path.join(CORPUS, "svcomp")
    for r in csv.DictReader(open(os.path.join(root, "tasks.csv"))):
        res.append((os.path.basename(r["task"]), r["expected_verdict"],
                    [os.path.join(root, r["program"]), "--task", os.path.join(root, r["task"])]))
    for p in sorted(glob.glob(os.path.join(CORPUS, "fse12", "systemc", "*.c"))):
        res.append((os.path.basename(p), "false" if "BUG" in p else "true", [p, "--spec", "errorlabel", "--32"]))
    return res


def run(vcov, limit, task, extra):
    name, expected, args = task
    cmd = [vcov, "verify", *args, "--timelimit", str(limit), "--stats", *extra]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    watchdog = threading.Timer(limit + 60, proc.kill)
    watchdog.start()
    out = proc.stdout.read()
    # CPU time (user + system) of the child, from its resource usage.
    _, _, ru = os.wait4(proc.pid, 0)
    watchdog.cancel()
    cpu_time = ru.ru_utime + ru.ru_stime
    wall = time.monotonic() - start
    line = next((l for l in out.splitlines() if l.startswith("Verification result:")), "")
    result = "true" if "TRUE" in line else "false" if "FALSE" in line else "unknown"
    def stat(key):
        m = re.search(r"^\s*" + re.escape(key) + r"\s+([0-9.]+)", out, re.M)
        return m.group(1) if m else "-"
    share = re.search(r"time in solver:\s+[0-9.]+ s \(([0-9.]+)%\)", out)
    engine = re.search(r"^Decided by:\s+(\S+)", out, re.M)
    return {
        "task": name, "expected": expected, "result": result, "wall": wall,
        "cpu": cpu_time, "paths": stat("paths explored:"),
        "calls": stat("solver calls:"), "share": share.group(1) + "%" if share else "-",
        "engine": engine.group(1) if engine else "-",
        "reason": line.split("UNKNOWN", 1)[1].strip() if "UNKNOWN" in line else "",
    }


def score(rows):
    s = 0
    for r in rows:
        if r["result"] == "unknown":
            continue
        if r["result"] == r["expected"]:
            s += 2 if r["expected"] == "true" else 1
        else:
            s += -32 if r["result"] == "true" else -16
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--modes", default="default,fi,pi,bfs")
    ap.add_argument("--filter", default="")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--list", help="a CSV table of tasks (task, expected_verdict) instead of the shared corpus")
    ap.add_argument("--root", default=".", help="the folder the --list paths are relative to")
    ap.add_argument("--vcov", help="the binary to measure (no build)")
    a = ap.parse_args()
    if not a.no_build and not a.vcov:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    vcov = a.vcov or os.path.join(ROOT, "target", "release", "vcov")
    ts = [t for t in (listed(a.list, a.root) if a.list else tasks()) if re.search(a.filter, t[0])]
    summary = []
    for mode in a.modes.split(","):
        with ThreadPoolExecutor(a.jobs) as ex:
            rows = list(ex.map(lambda t: run(vcov, a.limit, t, MODES[mode]), ts))
        print(f"\n## mode {mode} ({' '.join(MODES[mode]) or 'default'}), limit {a.limit} s\n")
        print(f"| {'task':44} | expected | result  | CPU s  | paths    | solver calls | solver | decided by  |")
        print(f"|{'-' * 46}|----------|---------|--------|----------|--------------|--------|-------------|")
        for r in rows:
            mark = "!" if r["result"] not in ("unknown", r["expected"]) else " "
            print(f"|{mark}{r['task']:44} | {r['expected']:8} | {r['result']:7} | {r['cpu']:6.1f} | {r['paths']:>8} | {r['calls']:>12} | {r['share']:>6} | {r['engine']:11} |")
        reasons = {}
        for r in rows:
            if r["result"] == "unknown":
                reasons[r["reason"][:70]] = reasons.get(r["reason"][:70], 0) + 1
        for why, n in sorted(reasons.items(), key=lambda x: -x[1]):
            print(f"  UNKNOWN x{n}: {why}")
        correct = sum(r["result"] == r["expected"] for r in rows)
        wrong = sum(r["result"] not in ("unknown", r["expected"]) for r in rows)
        cpu = sum(r["cpu"] for r in rows if r["result"] == r["expected"])
        summary.append((mode, correct, wrong, len(rows), score(rows), cpu))
    print("\n| mode    | correct | wrong | tasks | solved | score | CPU s (correct) |")
    print("|---------|---------|-------|-------|--------|-------|-----------------|")
    for mode, correct, wrong, n, s, cpu in summary:
        print(f"| {mode:7} | {correct:7} | {wrong:5} | {n:5} | {100 * correct / max(n, 1):5.1f}% | {s:5} | {cpu:15.1f} |")
    return 1 if any(w for _, _, w, _, _, _ in summary) else 0


if __name__ == "__main__":
    sys.exit(main())
