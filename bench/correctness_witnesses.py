#!/usr/bin/env python3
"""Correctness witnesses of `vcov verify` on the shared corpus, checked by the formats' checkers, and
the time of each task beside a base binary.

usage: bench/correctness_witnesses.py --vcov VCOV [--base VCOV_BASE] [--corpus DIR] [--limit S]
                                      [--jobs N] [--out DIR]

The tasks are those of `corpus-check verify`: corpus/svcomp/tasks.csv and the SystemC programs of
corpus/fse12/systemc (ErrorLabel specification). Each task runs with
`--witness witness.graphml --witness witness.yml` in a scratch folder. For every TRUE answer:
- the GraphML witness goes through witnesslint (`--witnesslint`, the sv-witnesses linter: exit code
  0 and no warning needed);
- the YAML witness is checked against the JSON schema below, written from the documented facts of
  the format 2.0 (sv-witnesses, `invariant_set` entries), with Python's jsonschema; then each loop
  invariant's location must point at the first character of a `while`, `for` or `do` keyword of the
  program, and the invariants must be C expressions over variables in scope there: they are inserted
  as `(void)(EXPR);` right before the loop and the program is compiled with `gcc -fsyntax-only`.
With `--base`, the base binary runs the same task right before (same worker), and the table gives
both wall and CPU times (user + system of the process: the machine is shared).

Writes `table.md` and `raw.csv` into --out; exit status 1 when a witness of a TRUE answer fails a
check or an answer is wrong.
"""
import argparse, csv, glob, os, re, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

try:
    import jsonschema, yaml
except ImportError:
    sys.exit("needs jsonschema and pyyaml: python3 -m venv V && V/bin/pip install jsonschema pyyaml")

SHA = {"type": "string", "pattern": "^[0-9a-fA-F]{64}$"}
LOCATION = {
    "type": "object",
    "required": ["file_name", "line", "column", "function"],
    "properties": {
        "file_name": {"type": "string"},
        "line": {"type": "integer", "minimum": 1},
        "column": {"type": "integer", "minimum": 1},
        "function": {"type": "string"},
    },
}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "required": ["entry_type", "metadata", "content"],
        "additionalProperties": False,
        "properties": {
            "entry_type": {"const": "invariant_set"},
            "metadata": {
                "type": "object",
                "required": ["format_version", "uuid", "creation_time", "producer", "task"],
                "properties": {
                    "format_version": {"const": "2.0"},
                    "uuid": {"type": "string", "format": "uuid",
                             "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"},
                    "creation_time": {"type": "string", "format": "date-time"},
                    "producer": {
                        "type": "object",
                        "required": ["name", "version"],
                        "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
                    },
                    "task": {
                        "type": "object",
                        "required": ["input_files", "input_file_hashes", "specification", "data_model", "language"],
                        "properties": {
                            "input_files": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                            "input_file_hashes": {"type": "object", "additionalProperties": SHA},
                            "specification": {"type": "string"},
                            "data_model": {"enum": ["ILP32", "LP64"]},
                            "language": {"const": "C"},
                        },
                    },
                },
            },
            "content": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["invariant"],
                    "additionalProperties": False,
                    "properties": {
                        "invariant": {
                            "type": "object",
                            "required": ["type", "location", "value", "format"],
                            "additionalProperties": False,
                            "properties": {
                                "type": {"enum": ["loop_invariant", "location_invariant"]},
                                "location": LOCATION,
                                "value": {"type": "string"},
                                "format": {"const": "c_expression"},
                            },
                        }
                    },
                },
            },
        },
    },
}


def run_measured(cmd, cwd, timeout):
    """Runs cmd and returns (stdout, wall s, cpu s) with the CPU time of that process alone (wait4)."""
    t = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # Read the (short) output first, then reap the process with its own rusage.
    out = _read_until(p, t + timeout)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return out, time.monotonic() - t, ru.ru_utime + ru.ru_stime


def _read_until(p, deadline):
    import selectors
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            p.kill()
            break
        if not sel.select(timeout=min(left, 1.0)):
            continue
        data = p.stdout.readline()
        if not data:
            break
        chunks.append(data)
    rest = p.stdout.read() or ""
    return "".join(chunks) + rest


def verdict_of(out):
    line = next((x for x in out.splitlines() if x.startswith("Verification result:")), "")
    return "true" if "TRUE" in line else "false" if "FALSE" in line else "unknown"


def check_graphml(a, witness, program):
    if not os.path.exists(witness):
        return "no witness"
    r = subprocess.run([a.wl_python, a.witnesslint, "--witness", witness, program], capture_output=True, text=True)
    text = r.stdout + r.stderr
    problems = [l.strip() for l in text.splitlines() if re.match(r"\s*(WARNING|ERROR|CRITICAL)\b", l)]
    if r.returncode != 0 or problems:
        return f"witnesslint exit {r.returncode}: " + "; ".join(problems[:3])
    return "ok"


def check_yaml(witness, program, data_model):
    """(result, number of invariants other than `1`)."""
    if not os.path.exists(witness):
        return "no witness", 0
    try:
        doc = yaml.safe_load(open(witness))
        jsonschema.validate(doc, SCHEMA, format_checker=jsonschema.FormatChecker())
    except Exception as e:
        return "schema: " + str(e).splitlines()[0][:200], 0
    lines = open(program, errors="replace").read().split("\n")
    by_loc = {}
    n = 0
    for entry in doc:
        meta = entry["metadata"]["task"]
        if meta["data_model"] != data_model:
            return f"data_model {meta['data_model']}, expected {data_model}", 0
        for c in entry["content"]:
            inv = c["invariant"]
            loc = inv["location"]
            line, col = loc["line"], loc["column"]
            if line > len(lines):
                return f"line {line} beyond the program", 0
            text = lines[line - 1][col - 1:]
            if inv["type"] == "loop_invariant" and not re.match(r"(while|for|do)\b", text):
                return f"loop invariant at {line}:{col} is not at a loop keyword: {text[:30]!r}", 0
            by_loc.setdefault((line, col), []).append(inv["value"])
            n += inv["value"] != "1"
    # Scope and syntax: the invariants as expression statements right before their locations.
    with tempfile.TemporaryDirectory() as d:
        src = list(lines)
        for (line, col), exprs in sorted(by_loc.items(), reverse=True):
            s = src[line - 1]
            ins = "{ " + " ".join(f"(void)({e});" for e in exprs) + " } "
            src[line - 1] = s[: col - 1] + ins + s[col - 1 :]
        ext = os.path.splitext(program)[1] or ".c"
        path = os.path.join(d, "instrumented" + ext)
        open(path, "w").write("\n".join(src))
        r = subprocess.run(["gcc", "-fsyntax-only", "-w", "-std=gnu11", "-I", os.path.dirname(program), path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            err = [l for l in r.stderr.splitlines() if "error" in l][:2]
            return "gcc: " + "; ".join(err)[:200], n
    return "ok", n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vcov", required=True)
    ap.add_argument("--base")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/corpus"))
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="regular expression on task names")
    ap.add_argument("--witnesslint", default="/work/tools/lint/witnesslinter.py")
    ap.add_argument("--wl-python", default="/work/tools/wl-venv/bin/python")
    a = ap.parse_args()
    vcov = os.path.abspath(a.vcov)
    base = os.path.abspath(a.base) if a.base else None
    root = os.path.join(a.corpus, "svcomp")
    tasks = []
    for r in csv.DictReader(open(root + "/tasks.csv")):
        prog = os.path.join(root, r["program"])
        tasks.append((r["task"], prog, ["--task", os.path.join(root, r["task"])], r["expected_verdict"], r["data_model"] or "ILP32"))
    for p in sorted(glob.glob(os.path.join(a.corpus, "fse12/systemc/*.c"))):
        tasks.append((os.path.basename(p), p, ["--spec", "errorlabel", "--32"], "false" if "BUG" in p else "true", "ILP32"))
    if a.only:
        tasks = [t for t in tasks if re.search(a.only, t[0])]

    def one(t):
        name, prog, opts, expected, dm = t
        row = {"task": name, "expected": expected}
        if base:
            with tempfile.TemporaryDirectory() as d:
                out, wall, cpu = run_measured([base, "verify", prog, *opts, "--timelimit", str(a.limit)], d, a.limit + 30)
                row.update(base_verdict=verdict_of(out), base_wall=f"{wall:.2f}", base_cpu=f"{cpu:.2f}")
        with tempfile.TemporaryDirectory() as d:
            cmd = [vcov, "verify", prog, *opts, "--timelimit", str(a.limit), "--witness", "witness.graphml",
                   "--witness", "witness.yml", "--stats"]
            out, wall, cpu = run_measured(cmd, d, a.limit + 30)
            v = verdict_of(out)
            engine = next((x.split(":", 1)[1].strip() for x in out.splitlines() if x.startswith("Decided by:")), "-")
            row.update(verdict=v, engine=engine, wall=f"{wall:.2f}", cpu=f"{cpu:.2f}")
            if v == "true":
                row["graphml"] = check_graphml(a, os.path.join(d, "witness.graphml"), prog)
                row["yaml"], row["invariants"] = check_yaml(os.path.join(d, "witness.yml"), prog, dm)
        return row

    with ThreadPoolExecutor(a.jobs) as ex:
        rows = list(ex.map(one, tasks))
    os.makedirs(a.out, exist_ok=True)
    fields = ["task", "expected", "verdict", "engine", "wall", "cpu", "base_verdict", "base_wall", "base_cpu",
              "graphml", "yaml", "invariants"]
    with open(os.path.join(a.out, "raw.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in fields})
    bad = []
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("| task | expected | verdict | decided by | wall s | CPU s | base verdict | base wall s | base CPU s | GraphML (witnesslint) | YAML (schema, location, gcc) | invariants |\n")
        f.write("|---|---|---|---|---:|---:|---|---:|---:|---|---|---:|\n")
        for r in rows:
            f.write("| " + " | ".join(str(r.get(k, "")) for k in fields) + " |\n")
            wrong = r["verdict"] not in ("unknown", r["expected"])
            failed = r["verdict"] == "true" and (r.get("graphml") != "ok" or r.get("yaml") != "ok")
            if wrong or failed:
                bad.append(r["task"])
    n_true = sum(r["verdict"] == "true" for r in rows)
    n_ok = sum(r["verdict"] == "true" and r.get("graphml") == "ok" and r.get("yaml") == "ok" for r in rows)
    correct = sum(r["verdict"] == r["expected"] for r in rows)
    wrong = sum(r["verdict"] not in ("unknown", r["expected"]) for r in rows)
    print(f"{correct}/{len(rows)} correct, {wrong} wrong; {n_ok}/{n_true} TRUE answers with both witnesses passing")
    if base:
        slower = [r for r in rows if r["verdict"] != "unknown" and float(r["cpu"]) > 1.2 * float(r["base_cpu"]) + 0.05]
        print(f"{len(slower)} decided tasks with more than 20% (+0.05 s) more CPU time than the base: "
              + ", ".join(f"{r['task']} {r['base_cpu']}->{r['cpu']}" for r in slower))
    if bad:
        print("failed: " + ", ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
