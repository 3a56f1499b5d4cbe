#!/usr/bin/env python3
"""What the report says about the property (issue #33): for every run of ../shared/corpus/cpachecker,
the property status of the default search (`--generate targeted`) against `--generate blind` and
`--generate guided`, each with the same time limit.

  bench/property.py                    # every run, 30 s per mode
  bench/property.py --limit 10 --only token_ring

Prints a markdown table; exit status 1 when a run breaks the rule: the default claims
`none_in_region` while another mode finds a violation inside the region, or the default has not
found a violation (`not_decided`) that blind found inside the region.
"""
import argparse, glob, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "cpachecker")
MODES = ["targeted", "blind", "guided"]


def run(vcov, prog, aa, mode, limit, out):
    if os.path.exists(out):
        os.remove(out)
    t = time.monotonic()
    r = subprocess.run([vcov, "coverage", prog, "--aa", aa, "--generate", mode, "--timelimit", "%g" % limit,
                        "--no-progress", "--json", out], capture_output=True, text=True, errors="replace",
                       timeout=limit + 120)
    wall = time.monotonic() - t
    try:
        p = json.load(open(out))["property"]
    except Exception:
        said = [l for l in r.stderr.splitlines() if l.startswith("vcov:")]
        return "no report (exit %d: %s)" % (r.returncode, said[-1] if said else "-"), wall
    status = p["status"]
    if p.get("by"):
        status += " by " + p["by"]
    return status, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default=os.path.join(ROOT, "target", "release", "vcov"))
    ap.add_argument("--limit", type=float, default=30)
    ap.add_argument("--only")
    a = ap.parse_args()
    runs = sorted(d for d in glob.glob(os.path.join(CORPUS, "*")) if os.path.exists(os.path.join(d, "AssumptionAutomaton.txt")))
    if a.only:
        runs = [d for d in runs if a.only in os.path.basename(d)]
    bad = 0
    print("| run | " + " | ".join("%s (s)" % m for m in MODES) + " | agree |")
    print("|---|" + "---|" * len(MODES) + "---|")
    with tempfile.TemporaryDirectory() as work:
        for d in runs:
            prog = glob.glob(os.path.join(d, "program.*"))[0]
            aa = os.path.join(d, "AssumptionAutomaton.txt")
            got = {m: run(a.vcov, prog, aa, m, a.limit, os.path.join(work, "r.json")) for m in MODES}
            default = got["targeted"][0]
            others_found = any(got[m][0].startswith("found_in_region") for m in MODES[1:])
            wrong = default.startswith("none_in_region") and others_found
            missed = others_found and not default.startswith("found_in_region")
            lost = any(got[m][0].startswith("no report") for m in MODES)
            agree = ("no: WRONG CLAIM" if wrong else "no: default missed it" if missed
                     else "no report" if lost else "yes")
            bad += wrong or missed or lost
            cells = " | ".join("%s (%.1f)" % got[m] for m in MODES)
            print("| %s | %s | %s |" % (os.path.basename(d), cells, agree), flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
