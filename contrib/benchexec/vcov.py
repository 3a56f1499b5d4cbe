# This file is part of vcov: the BenchExec tool-info module of `vcov verify` and `vcov coverage`.
#
# With the crate root on PYTHONPATH, BenchExec loads it as `contrib.benchexec.vcov`:
#   PYTHONPATH=. benchexec contrib/benchexec/vcov-verify.xml --tool-directory target/release
# (or copy it into benchexec/tools/ of a BenchExec installation and name it `vcov`).
"""BenchExec tool-info module for vcov (https://github.com/ — see README.md, "Running vcov under BenchExec").

Two kinds of runs, chosen in the benchmark definition:
- verify (the default): `vcov verify PROGRAM --prop PROPERTY [--32|--64] --witness witness.graphml
  --witness witness.yml` (the YAML witness, format 2.0, for a TRUE),
  the data model from the task definition's `options.data_model`;
- coverage: `<option name="coverage"/>` in the definition; the task's input file is the program of a
  CPAchecker output folder (or its AssumptionAutomaton.txt) and the automaton is the folder's
  `AssumptionAutomaton.txt`: `vcov coverage PROGRAM --aa AUTOMATON --format json --no-progress`.
  `get_value_from_output` reads the figures (lines, over, under, executions, exact, bug,
  stopped_by) from the JSON report, for `<column>` tags.
Both get `--timelimit` (CPU time, as BenchExec counts it: two seconds below BenchExec's CPU-time
limit, since vcov ends at most a second of CPU past its own, so that it reports before it is killed)
and `--memory-limit` (below BenchExec's memory limit) from the run's limits.
"""

import json
import os
import re

import benchexec.result as result
from benchexec.tools.template import BaseTool2, ToolNotFoundException

AUTOMATON_FILE = "AssumptionAutomaton.txt"


class Tool(BaseTool2):
    """vcov: verification coverage of C programs, and an SV-COMP verifier."""

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("vcov")
        except ToolNotFoundException:
            # A crate checkout given as the tool directory: its release build.
            return tool_locator.find_executable("vcov", subdir="target/release")

    def name(self):
        return "vcov"

    def project_url(self):
        return "https://github.com/vcov/vcov"

    def version(self, executable):
        # `vcov --version` prints `vcov 0.1.0`.
        return self._version_from_tool(executable, line_prefix="vcov")

    def program_files(self, executable):
        return [executable]

    def cmdline(self, executable, options, task, rlimits):
        options = list(options)
        limits = []
        if rlimits.cputime:
            # vcov stops its search at its own limit (CPU time) and still reports; BenchExec would
            # kill it.
            limits += ["--timelimit", str(max(1, int(rlimits.cputime) - 2))]
        if rlimits.memory:
            mib = rlimits.memory // (1024 * 1024)
            limits += ["--memory-limit", str(max(1, int(mib * 0.85)))]
        if "coverage" in options:
            options.remove("coverage")
            program, automaton = self._coverage_inputs(task)
            return [executable, "coverage", program, "--aa", automaton, "--format", "json", "--no-progress"] + limits + options
        program = task.single_input_file
        cmd = [executable, "verify", program]
        if task.property_file:
            cmd += ["--prop", task.property_file]
        data_model = (task.options or {}).get("data_model")
        if data_model == "LP64":
            cmd.append("--64")
        elif data_model == "ILP32":
            cmd.append("--32")
        return cmd + ["--witness", "witness.graphml", "--witness", "witness.yml"] + limits + options

    @staticmethod
    def _coverage_inputs(task):
        files = list(task.input_files)
        automata = [f for f in files if os.path.basename(f) == AUTOMATON_FILE]
        programs = [f for f in files if f.endswith((".c", ".i"))]
        folder = os.path.dirname((programs or automata or files)[0])
        program = programs[0] if programs else os.path.join(folder, "program.c")
        automaton = automata[0] if automata else os.path.join(folder, AUTOMATON_FILE)
        return program, automaton

    def determine_result(self, run):
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        code = run.exit_code
        if code.signal:
            return f"{result.RESULT_ERROR} (signal {code.signal})"
        if code.value in (130, 143):
            return f"{result.RESULT_ERROR} (interrupted)"
        if code.value == 3:
            return f"{result.RESULT_ERROR} (internal error)"
        if code.value == 2:
            return f"{result.RESULT_ERROR} ({_error_reason(run.output) or 'bad input'})"
        if code.value != 0:
            return f"{result.RESULT_ERROR} (exit code {code.value})"
        for line in run.output:
            line = line.strip()
            if line.startswith("Verification result:"):
                verdict = line[len("Verification result:"):].strip()
                if verdict == "TRUE":
                    return result.RESULT_TRUE_PROP
                if verdict == "FALSE(unreach-call)":
                    return result.RESULT_FALSE_REACH
                if verdict.startswith("UNKNOWN"):
                    # The reason stays in the log; BenchExec's status "unknown" takes no suffix.
                    return result.RESULT_UNKNOWN
                return f"{result.RESULT_ERROR} (unexpected verdict {verdict})"
        if _report(run.output) is not None:
            return result.RESULT_DONE
        return f"{result.RESULT_ERROR} ({_error_reason(run.output) or 'no result'})"

    def get_value_from_output(self, output, identifier):
        """Coverage figures of the JSON report: lines, over, under, executions (numbers), exact,
        bug, interrupted (true/false), stopped_by; the summary's figures are used when the output
        holds the text table instead (lines, over, under, executions)."""
        report = _report(output)
        if report is not None:
            values = {
                "lines": len(report.get("lines_to_cover", [])),
                "over": len(report.get("over_approximation", {}).get("lines", [])),
                "under": len(report.get("under_approximation", {}).get("lines", [])),
                "executions": report.get("under_approximation", {}).get("executions"),
                "exact": report.get("exact"),
                "bug": report.get("bug_found"),
                "interrupted": report.get("interrupted"),
                "stopped_by": report.get("stopped_by"),
            }
            value = values.get(identifier)
            if isinstance(value, bool):
                return "true" if value else "false"
            return None if value is None else str(value)
        # The text summary: `   12   10 ( 83.3%)   10 ( 83.3%)   2   -   0.12s`.
        for line in output:
            m = re.match(r"^\s*(\d+)\s+(\d+) \(\s*[\d.]+%\)\s+(\d+) \(\s*[\d.]+%\)\s+(\d+)\s", line)
            if m:
                index = {"lines": 1, "over": 2, "under": 3, "executions": 4}.get(identifier)
                return m.group(index) if index else None
        return None


def _report(output):
    """The JSON report printed by `vcov coverage --format json` (one line), or None."""
    for line in output:
        line = line.strip()
        if line.startswith("{") and '"schema_version"' in line:
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def _error_reason(output):
    """A short reason from vcov's error line `vcov: FILE:LINE:COL: what: details`: `what`."""
    for line in reversed(list(output)):
        m = re.match(r"^vcov: (?:\S+?:\d+:\d+: |\S+: )?([^:]+)", line.strip())
        if m:
            return m.group(1).strip()
    return None
