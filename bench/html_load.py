#!/usr/bin/env python3
"""How fast the HTML report opens in a browser (issues #10, #28): writes `vcov coverage --html` for
large shared runs (gigaset.BUG-value-10s, keyspan_remote-explicit, ppp_generic.BUG-predicate-10s,
usbcore.BUG-predicate-10s) and `vcov compare --html` for the kbtab value/predicate pair and for
gigaset's value run against everything explored, then loads each page of each report (index.html,
the largest source page, branches.html and review.html, those written) from a file URL in headless
Chromium (a 1400 x 2000 window) several times. Each page records `performance.now()` at its load
event in `data-load-ms` (an inline script); the table gives that load time (median and worst) and
Chromium's whole wall time per load.

  bench/html_load.py                  # --limit 30, 5 loads per page
  bench/html_load.py --loads 10 --corpus ../shared/corpus/cpachecker

Exit status 0 when every page loads within 2 s, 1 otherwise.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def load(page):
    """One headless load of `page`: (load time in ms from the page, Chromium's wall time in s)."""
    with tempfile.TemporaryDirectory() as profile:
        t = time.monotonic()
        out = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--window-size=1400,2000", "--user-data-dir=" + profile, "--dump-dom",
             "file://" + os.path.abspath(page)],
            capture_output=True, text=True, errors="replace", timeout=120)
        wall = time.monotonic() - t
    m = re.search(r'data-load-ms="(\d+)"', out.stdout)
    if not m:
        sys.exit("no load time in the DOM of %s: %s" % (page, out.stderr[-300:]))
    return int(m.group(1)), wall


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", default="target/release/vcov")
    ap.add_argument("--corpus", default="../shared/corpus/cpachecker")
    ap.add_argument("--limit", type=int, default=30, help="vcov's --timelimit per run")
    ap.add_argument("--loads", type=int, default=5, help="loads per page")
    a = ap.parse_args()
    c = a.corpus
    jobs = [
        ("coverage gigaset.BUG-value-10s", ["coverage", c + "/gigaset.BUG-value-10s/program.c",
                                             "--aa", c + "/gigaset.BUG-value-10s/AssumptionAutomaton.txt"]),
        ("coverage keyspan_remote-explicit", ["coverage", c + "/keyspan_remote-explicit/program.c",
                                               "--aa", c + "/keyspan_remote-explicit/AssumptionAutomaton.txt"]),
        ("coverage ppp_generic.BUG-predicate", ["coverage", c + "/ppp_generic.BUG-predicate-10s/program.c",
                                                 "--aa", c + "/ppp_generic.BUG-predicate-10s/AssumptionAutomaton.txt"]),
        ("coverage usbcore.BUG-predicate", ["coverage", c + "/usbcore.BUG-predicate-10s/program.c",
                                            "--aa", c + "/usbcore.BUG-predicate-10s/AssumptionAutomaton.txt"]),
        ("compare kbtab value/predicate", ["compare", c + "/kbtab-value-10s/program.c",
                                           "--aa", c + "/kbtab-value-10s/AssumptionAutomaton.txt",
                                           "--aa", c + "/kbtab-predicate-10s/AssumptionAutomaton.txt"]),
        ("compare gigaset value/true_aa", ["compare", c + "/gigaset.BUG-value-10s/program.c",
                                           "--aa", c + "/gigaset.BUG-value-10s/AssumptionAutomaton.txt",
                                           "--aa", c + "/coverage-script-tests/true_aa.spc"]),
    ]
    ok = True
    print("%-36s %-15s %7s %9s %9s %9s %9s" % ("report", "page", "lines", "size KiB", "load ms", "worst ms",
                                              "wall s"))
    with tempfile.TemporaryDirectory() as work:
        for k, (name, args) in enumerate(jobs):
            out = os.path.join(work, "r%d" % k)
            p = subprocess.run([a.vcov] + args + ["--timelimit", str(a.limit), "--no-progress", "--html", out],
                               capture_output=True, text=True, errors="replace")
            if p.returncode != 0:
                print("%-36s ERROR %s" % (name, p.stderr.strip()[-200:]))
                ok = False
                continue
            pages = ["index.html"]
            sources = [f for f in os.listdir(out) if f.startswith("source-")]
            if sources:
                pages.append(max(sources, key=lambda f: os.path.getsize(os.path.join(out, f))))
            pages += [f for f in ["branches.html", "review.html"] if os.path.exists(os.path.join(out, f))]
            for f in pages:
                page = os.path.join(out, f)
                with open(page, encoding="utf-8") as fh:
                    rows = fh.read().count('<tr id="L')
                loads = [load(page) for _ in range(a.loads)]
                ms = [l[0] for l in loads]
                wall = [l[1] for l in loads]
                print("%-36s %-15s %7d %9.0f %9.0f %9d %9.2f" % (
                    name, f, rows, os.path.getsize(page) / 1024, statistics.median(ms), max(ms),
                    statistics.median(wall)))
                ok = ok and max(ms) <= 2000
    print("every page loads within 2 s" if ok else "some page loads in more than 2 s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
