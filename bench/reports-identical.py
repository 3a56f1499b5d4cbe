#!/usr/bin/env python3
"""Run one vcov binary over the shared corpus and write every report it makes into a folder; or compare
two such folders byte for byte.

usage: bench/reports-identical.py run VCOV OUTDIR [--corpus DIR] [--jobs N] [--max-executions N]
       bench/reports-identical.py diff DIR_A DIR_B

`run` measures every run of corpus/cpachecker (program + AssumptionAutomaton.txt), the cases of
corpus/cpachecker/coverage-script-tests/EXPECTED.json and the fse12 SystemC programs with
assumption-automata/true.spc, with `--reproducible` and a bound on the executions rather than on time (a
time limit would make the reports depend on the machine's load). Each run writes its text, JSON, CSV,
lcov and HTML reports and its evidence; a few runs also go through `vcov compare` and one `vcov batch`.
A run that still stopped on its safety time limit is named in OUTDIR/NONDETERMINISTIC: its reports may
differ between two runs of the same binary.

`diff` lists every file that is missing on one side or differs, and exits 1 if any does.
Used to show that a refactoring leaves every report unchanged: build the branch point and the change,
`run` each into its own folder, then `diff` them.
"""
import argparse, csv, filecmp, glob, json, os, re, shutil, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")
# A time limit only as a guard against a run that does not end; the executions bound the runs.
SAFETY_SECONDS = 120
# Runs whose search finds executions slowly: fewer executions, so that they end on the bound and not
# on the safety limit (under load on two cores they found 11 to 33 in 120 s).
SLOW = {"iowarrior.BUG-predicate-10s": 5, "lirc_imon.BUG-value-10s": 5, "ppp_generic.BUG-predicate-10s": 5}


def cases(corpus, max_exec):
    """(name, argv after `vcov`, writes reports) for every run."""
    res = []
    limit = ["--max-executions", str(max_exec), "--timelimit", str(SAFETY_SECONDS)]
    for aa in sorted(glob.glob(corpus + "/cpachecker/*/AssumptionAutomaton.txt")):
        d = os.path.dirname(aa)
        name = os.path.basename(d)
        n = SLOW.get(name, max_exec)
        res.append((f"aa-{name}", ["coverage", d, "--max-executions", str(n), "--timelimit", str(SAFETY_SECONDS)],
                    True))
    small = ["token_ring.02-value-10s", "kundu-value-10s", "toy1_BUG-predicate-10s", "pc_sfifo_2_BUG-value-10s"]
    for name in small:
        d = f"{corpus}/cpachecker/{name}"
        for gen in ["blind", "guided"]:
            res.append((f"aa-{name}-{gen}", ["coverage", d, "--generate", gen, *limit], True))
        res.append((f"aa-{name}-first-line", ["coverage", d, "--line-rule", "first-line", *limit], True))
        res.append((f"aa-{name}-assume", ["coverage", d, "--assume",
                                          "fresh-pointers,no-extern-writes,unmodelled-library", *limit], True))
        res.append((f"aa-{name}-continue", ["coverage", d, "--continue-after-bug", *limit], True))
    base = corpus + "/cpachecker/coverage-script-tests"
    for i, c in enumerate(json.load(open(base + "/EXPECTED.json"))["cases"]):
        prog, aa = os.path.join(base, c["program"]), os.path.join(base, c["aa"])
        if "executions" in c:
            extra = ["--executions-from", os.path.join(base, c["executions"])]
        else:
            extra = ["--generate", c.get("generate", "targeted"), "--timelimit", str(SAFETY_SECONDS),
                     "--max-executions", str(c.get("max_executions", max_exec))]
        res.append((f"expected-{i:02}", ["coverage", prog, "--aa", aa, *extra], True))
    true_spc = os.path.join(ROOT, "assumption-automata", "true.spc")
    for p in sorted(glob.glob(corpus + "/fse12/systemc/*.c")):
        name = os.path.basename(p)[:-2]
        res.append((f"systemc-{name}", ["coverage", p, "--aa", true_spc, "--spec", "errorlabel", *limit], True))
    pairs = [("token_ring.02", "token_ring.02-value-10s", "token_ring.02-predicate-10s"),
             ("mem_slave_tlm.3", "mem_slave_tlm.3-value-10s", "mem_slave_tlm.3-predicate-10s"),
             ("kbtab", "kbtab-value-10s", "kbtab-predicate-10s")]
    for name, a, b in pairs:
        da, db = f"{corpus}/cpachecker/{a}", f"{corpus}/cpachecker/{b}"
        res.append((f"compare-{name}", ["compare", da + "/program.c", "--aa", da, "--aa", db,
                                        "--name", "value", "--name", "predicate", *limit], True))
    return res


def run_one(vcov, out, case):
    name, argv, reports = case
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    cmd = [vcov, *argv, "--reproducible", "--no-progress"]
    if reports:
        # Paths relative to the run's folder, so that no report names the output folder.
        cmd += ["--json", "report.json", "--csv", "report.csv", "--lcov", "lcov", "--html", "html"]
        if argv[0] == "coverage":
            cmd += ["--evidence", "evidence"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=d)
    with open(f"{d}/stdout.txt", "w") as f:
        f.write(r.stdout)
    with open(f"{d}/stderr.txt", "w") as f:
        f.write(r.stderr)
    with open(f"{d}/exit.txt", "w") as f:
        f.write(f"{r.returncode}\n")
    stopped_by_time = False
    try:
        j = json.load(open(f"{d}/report.json"))
        for c in j if isinstance(j, list) else j.get("configurations", [j]):
            stopped_by_time |= "time" in str(c.get("stopped_by", ""))
    except (OSError, ValueError, AttributeError):
        pass
    return name, r.returncode, stopped_by_time


def blank_batch_times(out):
    """Blanks the CPU and wall-clock times `vcov batch` measured in the files under `out`."""
    seconds = re.compile(r"\b\d+\.\d\ds\b")
    for name in ["batch.stdout.txt", "batch/summary.txt"]:
        path = os.path.join(out, name)
        if os.path.exists(path):
            text = open(path).read()
            open(path, "w").write(seconds.sub("T.TTs", text))
    path = os.path.join(out, "batch/results.csv")
    if os.path.exists(path):
        rows = list(csv.reader(open(path)))
        cols = [i for i, h in enumerate(rows[0]) if h in ("cpu_seconds", "wall_seconds")]
        for r in rows[1:]:
            for i in cols:
                r[i] = "T"
        with open(path, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)
    for path in glob.glob(os.path.join(out, "batch/tasks/*.json")):
        text = open(path).read()
        text = re.sub(r'"(cpu_seconds|wall_seconds)": *[0-9.e-]+', r'"\1": 0', text)
        open(path, "w").write(text)


def cmd_run(a):
    vcov = os.path.abspath(a.vcov)
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    all_cases = cases(os.path.abspath(a.corpus), a.max_executions)
    with ThreadPoolExecutor(a.jobs) as ex:
        res = list(ex.map(lambda c: run_one(vcov, a.out, c), all_cases))
    # One batch over a few small runs: its summary and per-task reports.
    runs = [f"{os.path.abspath(a.corpus)}/cpachecker/{n}" for n in ["toy-value-10s", "toy1_BUG-predicate-10s", "kundu-value-10s"]]
    b = subprocess.run([vcov, "batch", *runs, "--out", "batch", "--jobs", "1", "--no-progress",
                        "--", "--reproducible", "--max-executions", str(a.max_executions)],
                       capture_output=True, text=True, cwd=a.out)
    with open(f"{a.out}/batch.stdout.txt", "w") as f:
        f.write(b.stdout)
    # The batch measures its children's times itself (`--reproducible` does not reach them): those
    # figures are blanked, the logs dropped; everything else of its reports and summary is compared.
    shutil.rmtree(f"{a.out}/batch/logs", ignore_errors=True)
    blank_batch_times(a.out)
    slow = [n for n, _, t in res if t]
    with open(f"{a.out}/NONDETERMINISTIC", "w") as f:
        f.write("".join(n + "\n" for n in slow))
    print(f"{len(res)} runs into {a.out}; exit codes: "
          + ", ".join(f"{c}: {sum(1 for _, rc, _ in res if rc == c)}" for c in sorted({rc for _, rc, _ in res}))
          + f"; batch exit {b.returncode}; stopped by time: {len(slow)} {slow}")


def cmd_diff(a):
    bad = []

    def walk(x, y, rel):
        cmp = filecmp.dircmp(x, y)
        bad.extend(f"only in {a.a}: {os.path.join(rel, n)}" for n in cmp.left_only)
        bad.extend(f"only in {a.b}: {os.path.join(rel, n)}" for n in cmp.right_only)
        for n in cmp.common_files:
            if not filecmp.cmp(os.path.join(x, n), os.path.join(y, n), shallow=False):
                bad.append(f"differs: {os.path.join(rel, n)}")
        for n in cmp.common_dirs:
            walk(os.path.join(x, n), os.path.join(y, n), os.path.join(rel, n))

    walk(a.a, a.b, "")
    # Runs that stopped on the safety time limit may differ between two runs of one binary.
    loose = set()
    for d in (a.a, a.b):
        with open(os.path.join(d, "NONDETERMINISTIC")) as f:
            loose |= {line.strip() for line in f if line.strip()}
    ignored = [x for x in bad if x.split(": ", 1)[1].split("/")[0] in loose and x.split(": ", 1)[1] != "NONDETERMINISTIC"]
    bad = [x for x in bad if x not in ignored]
    for line in ignored:
        print(f"(ignored, a run stopped by its time limit) {line}")
    n_files = sum(len(f) for _, _, f in os.walk(a.a))
    for line in bad[:200]:
        print(line)
    if len(bad) > 200:
        print(f"... and {len(bad) - 200} more")
    print(f"{n_files} files compared: {'identical' if not bad else f'{len(bad)} difference(s)'}")
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("vcov")
    r.add_argument("out")
    r.add_argument("--corpus", default=DEFAULT_CORPUS)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--max-executions", type=int, default=50)
    d = sub.add_parser("diff")
    d.add_argument("a")
    d.add_argument("b")
    a = p.parse_args()
    if a.cmd == "run":
        cmd_run(a)
        return 0
    return cmd_diff(a)


if __name__ == "__main__":
    sys.exit(main())
