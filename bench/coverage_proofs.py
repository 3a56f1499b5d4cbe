#!/usr/bin/env python3
"""What the proofs over the whole program (k-induction beside the search, `driver::proofs`) add to
`vcov coverage` on loop programs: for every task of a task list (sv-benchmarks `.yml` files, as
bench/verify.py reads them), the program with everything explored (assumption-automata/true.spc)
and a time limit, once with the proofs and once with `--no-induction`.

Per task: the lines of the over-approximation, the lines decided (covered or proven not coverable)
by each run, the lines the proofs decided, and a check that no line the proofs decided is covered
by an execution of the run without them (`!` otherwise). Runs are sequential.

  bench/coverage_proofs.py --list bench/loop-tasks.csv --root /work/svb --limit 10
"""
import argparse, csv, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BY_PROGRAM = ("k-induction", "invariants", "bounded")


def program_of(task):
    text = open(task).read()
    m = re.search(r"input_files:\s*['\"]?([^'\"\n]+)", text)
    return os.path.join(os.path.dirname(task), m.group(1).strip())


def run(vcov, program, model, limit, extra):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [vcov, "coverage", program, "--aa", os.path.join(ROOT, "assumption-automata/true.spc"),
                "--timelimit", str(limit), "--no-progress", "--json", out, "--64" if model == "LP64" else "--32"] + extra
        t = time.time()
        p = subprocess.run(args, capture_output=True, text=True, timeout=limit + 60)
        dt = time.time() - t
        if p.returncode != 0 or not os.path.exists(out):
            return None, dt, (p.stderr.strip().splitlines() or ["no report"])[-1][:100]
        return json.load(open(out)), dt, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target/release/vcov"))
    ap.add_argument("--list", required=True)
    ap.add_argument("--root", required=True, help="the sv-benchmarks folder the list's paths are relative to")
    ap.add_argument("--limit", type=float, default=10)
    ap.add_argument("--csv")
    a = ap.parse_args()
    rows, bad = [], 0
    print(f"{'task':48} {'over':>5} {'without':>8} {'with':>8} {'proofs':>6} {'s with':>7}")
    for r in csv.DictReader(open(a.list)):
        task = os.path.join(a.root, r["task"])
        program = program_of(task)
        name = os.path.relpath(task, a.root)
        w, dt, err = run(a.vcov, program, r.get("data_model", "ILP32"), a.limit, [])
        wo, _, err2 = run(a.vcov, program, r.get("data_model", "ILP32"), a.limit, ["--no-induction"])
        if w is None or wo is None:
            print(f"  {name:46} error: {err or err2}")
            rows.append({"task": name, "error": err or err2})
            continue
        decided = lambda j: sum(1 for s in j["line_status"].values() if s in ("covered", "not_coverable"))
        proven = [l for l, by in w["not_coverable_by"].items() if by.startswith(BY_PROGRAM)]
        covered_wo = {l for l, s in wo["line_status"].items() if s == "covered"}
        wrong = sorted(set(proven) & covered_wo, key=int)
        bad += bool(wrong)
        over = len(w["over_approximation"]["lines"])
        mark = "!" if wrong else " "
        print(f"{mark} {name:46} {over:5} {decided(wo):8} {decided(w):8} {len(proven):6} {dt:7.1f}" + (f"  covered: {wrong}" if wrong else ""))
        rows.append({"task": name, "over": over, "decided_without": decided(wo), "decided_with": decided(w),
                     "proven_by_program": len(proven), "seconds_with": round(dt, 2), "contradicted": " ".join(wrong)})
    ok = [x for x in rows if "over" in x]
    tot = lambda k: sum(x[k] for x in ok)
    print(f"{len(ok)} tasks: {tot('over')} lines over; decided {tot('decided_without')} without the proofs, "
          f"{tot('decided_with')} with them ({tot('proven_by_program')} by the proofs); "
          f"{sum(1 for x in ok if x['decided_with'] == x['over'])} tasks fully decided with, "
          f"{sum(1 for x in ok if x['decided_without'] == x['over'])} without; {bad} contradicted")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=["task", "over", "decided_without", "decided_with", "proven_by_program", "seconds_with", "contradicted", "error"])
            wr.writeheader()
            wr.writerows(rows)
    sys.exit(1 if bad else 0)


main()
