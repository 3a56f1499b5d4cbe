#!/usr/bin/env python3
"""Checks an automaton written by `vcov verify --aa-out` against `vcov coverage --json` on it.

Usage: region_check.py AA.txt COVERAGE.json
Prints: visited lines, over-approximation, visited lines outside it, decided lines (covered or
not coverable), and exits 1 when a visited line is outside the over-approximation.
"""
import json
import sys


def ranges(text):
    res = []
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        res.extend(range(int(a), int(b or a) + 1))
    return res


def visited(aa):
    with open(aa) as f:
        for line in f:
            if line.startswith("// visited lines:"):
                return set(ranges(line.split(":", 1)[1].strip()))
            if not line.startswith("//"):
                break
    raise SystemExit(f"{aa}: no 'visited lines' comment")


def main():
    aa, js = sys.argv[1], sys.argv[2]
    v = visited(aa)
    with open(js) as f:
        d = json.load(f)
    status = {int(k): s for k, s in d["line_status"].items()}
    over = {l for l, s in status.items() if s != "unexplored"}
    decided = sum(1 for s in status.values() if s in ("covered", "not_coverable"))
    outside = sorted(v - over)
    print(f"visited={len(v)} over={len(over)} outside={len(outside)} decided={decided} exact={d['exact']}")
    if outside:
        print("outside:", outside[:20])
        sys.exit(1)


if __name__ == "__main__":
    main()
