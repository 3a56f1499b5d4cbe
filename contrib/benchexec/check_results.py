#!/usr/bin/env python3
"""Checks BenchExec result files of the vcov benchmark definitions against the fixtures.

usage: contrib/benchexec/check_results.py RESULTS.xml.bz2...

Every run must have the status its task promises: for verification runs, the expected verdict of
the task definition (`true`, or `false(unreach-call)`); for coverage runs (option `coverage`),
`done` with the figures lines >= over >= under read back by the tool-info module. Exits 1 and
names each run that differs, or when a file holds no run at all.
"""
import bz2
import os
import re
import sys
import xml.etree.ElementTree as ET


def expected_status(task_file):
    with open(task_file) as f:
        text = f.read()
    m = re.search(r"property_file:\s*\S*unreach-call\.prp\s*\n\s*expected_verdict:\s*(true|false)", text)
    if not m:
        return None
    return "true" if m.group(1) == "true" else "false(unreach-call)"


def check(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rb") as f:
        root = ET.parse(f).getroot()
    coverage = "coverage" in root.get("options", "").split()
    base = os.path.dirname(os.path.abspath(path))
    errors, n = [], 0
    for run in root.iter("run"):
        n += 1
        name = run.get("name")
        cols = {c.get("title"): c.get("value") for c in run.iter("column")}
        status = cols.get("status")
        if coverage:
            figures = [cols.get(k) for k in ("lines", "over", "under")]
            if status != "done":
                errors.append(f"{name}: status {status}, expected done")
            elif not all(v is not None and v.isdigit() for v in figures):
                errors.append(f"{name}: no coverage figures ({figures})")
            elif not int(figures[0]) >= int(figures[1]) >= int(figures[2]):
                errors.append(f"{name}: lines >= over >= under does not hold ({figures})")
        else:
            expected = expected_status(os.path.normpath(os.path.join(base, name)))
            if expected is None:
                errors.append(f"{name}: the task definition gives no expected verdict")
            elif status != expected:
                errors.append(f"{name}: status {status}, expected {expected}")
    if n == 0:
        errors.append("no runs")
    return n, errors


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failed = False
    for path in sys.argv[1:]:
        n, errors = check(path)
        for e in errors:
            print(f"{os.path.basename(path)}: {e}")
        print(f"{os.path.basename(path)}: {n} runs, {len(errors)} with a wrong status")
        failed |= bool(errors)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
