#!/usr/bin/env bash
# Runs vcov's cargo-fuzz targets: `bench/fuzz.sh TARGET|all SECONDS [RUNS]`: each target for SECONDS,
# or until it has run RUNS inputs when RUNS is given (issue #12 asks for 10^6 or 30 minutes:
# `bench/fuzz.sh all 1800 1000000`).
# Seeds fuzz/corpus/<target>/ from fixtures/ (copies made at run time, ignored by git), runs each target
# for SECONDS, and prints the executions and crashes per target. Crashing inputs are left in
# fuzz/artifacts/<target>/; turn each into a regression test (fixtures/bad or a unit test).
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(automaton cfront product replay_readers task)
what="${1:?usage: bench/fuzz.sh TARGET|all SECONDS}"
secs="${2:?usage: bench/fuzz.sh TARGET|all SECONDS}"
runs="${3:--1}"
if [ "$what" = all ]; then set -- "${TARGETS[@]}"; else set -- "$what"; fi

seed() {
  local t="$1" d="fuzz/corpus/$1" f i=0
  mkdir -p "$d"
  case "$t" in
    automaton)
      for f in $(find fixtures assumption-automata -name '*.spc' -o -name 'aa*.txt' -o -path '*/bad/aa/*' -type f) \
               fixtures/automata/*.txt assumption-automata/*.txt; do
        if [ -f "$f" ]; then cp "$f" "$d/seed-$((i++))"; fi
      done ;;
    cfront)
      for f in $(find fixtures -name '*.c'); do cp "$f" "$d/seed-$((i++))"; done ;;
    product)
      for f in fixtures/e2e/*/aa*.txt; do
        { cat "$(dirname "$f")/program.c"; printf '\n//@@AUTOMATON@@\n'; cat "$f"; } >"$d/seed-$((i++))"
      done ;;
    replay_readers)
      for f in $(find fixtures -name 'metadata.xml'); do { printf M; cat "$f"; } >"$d/seed-$((i++))"; done
      for f in $(find fixtures -name 'test*.xml'); do { printf T; cat "$f"; } >"$d/seed-$((i++))"; done
      for f in $(find fixtures -name 'vcov-claims.json'); do { printf C; cat "$f"; } >"$d/seed-$((i++))"; done ;;
    task)
      for f in $(find fixtures -name '*.yml'); do { printf Y; cat "$f"; } >"$d/seed-$((i++))"; done
      for f in $(find fixtures -name '*.prp'); do { printf P; cat "$f"; } >"$d/seed-$((i++))"; done ;;
    *) echo "unknown target $t (one of ${TARGETS[*]})" >&2; exit 2 ;;
  esac
  echo "$t: $(ls "$d" | wc -l) inputs in $d"
}

# VCOV_FUZZ_TARGET_DIR keeps the instrumented build somewhere that outlives a checkout (CI sets it):
# the first build takes minutes, a rebuild of vcov alone much less.
target_dir="${VCOV_FUZZ_TARGET_DIR:-fuzz/target}"
status=0
summary=""
for t in "$@"; do
  seed "$t"
  log="fuzz/fuzz-$t.log"
  # -timeout: an input taking longer than 30 s counts as a crash (a hang): statements nested as deep
  # as the front end allows take seconds under the sanitizer (3,500 nested `if`s: 7 s);
  # -rss_limit_mb: the C parser's thread reserves a large stack, which is virtual memory only.
  set +e
  cargo +nightly fuzz run --target-dir "$target_dir" "$t" "fuzz/corpus/$t" -- -max_total_time="$secs" -runs="$runs" -timeout=30 \
    -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  crashes=$(ls "fuzz/artifacts/$t" 2>/dev/null | wc -l)
  line="$t: ${execs:-0} executions, $crashes crash files in fuzz/artifacts/$t (exit $rc)"
  echo "$line"
  summary+="$line"$'\n'
  if [ "$rc" != 0 ]; then
    status=1
    grep -m1 -A3 -E 'panicked|ERROR: libFuzzer|SUMMARY' "$log" || true
  fi
done
printf '\n%s' "$summary"
exit $status
