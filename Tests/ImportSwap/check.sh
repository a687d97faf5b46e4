#!/usr/bin/env bash
# TCA case studies moved to Patchbay by changing one import line: their tests must pass as
# written, and fail — exit non-zero, print the diff, under XCTest and Swift Testing alike —
# when a reducer is broken. Run by `make test` (target import-swap-check).
set -euo pipefail
cd "$(dirname "$0")"
LOG=.build/check.log

echo "import-swap: building the case studies and their tests"
swift build --build-tests

echo "import-swap: the tests pass as written"
swift test --skip-build

# mutate FILE FROM TO EXPECT...: replaces FROM by TO in FILE (exactly once), rebuilds, runs the
# tests, and requires them to fail with every EXPECT (an extended regex) in the output.
mutate() {
  local file=$1 from=$2 to=$3
  shift 3
  cp "$file" "$file.orig"
  # Restored files get a new time, so the next build sees them changed.
  trap 'mv "'"$file"'.orig" "'"$file"'"; touch "'"$file"'"' EXIT
  python3 - "$file" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"import-swap: expected one '{old}' in {path}, found {text.count(old)}")
open(path, "w").write(text.replace(old, new))
PY
  echo "import-swap: breaking $file: '${from%%$'\n'*}'"
  swift build --build-tests >/dev/null
  if swift test --skip-build >"$LOG" 2>&1; then
    cat "$LOG"
    echo "import-swap: FAIL: the tests passed against a broken reducer ($file)" >&2
    exit 1
  fi
  for expect in "$@"; do
    if ! grep -Eq -- "$expect" "$LOG"; then
      cat "$LOG"
      echo "import-swap: FAIL: the failing run did not print /$expect/ ($file)" >&2
      exit 1
    fi
  done
  mv "$file.orig" "$file"
  touch "$file"
  trap - EXIT
  echo "import-swap: failed as it must: $*"
}

# XCTest: a wrong count is a state diff.
mutate Sources/CaseStudies/Timers.swift \
  "state.secondsElapsed += 1" "state.secondsElapsed += 2" \
  "A state change does not match expectation" "−   secondsElapsed: 1" "\+   secondsElapsed: 2" \
  "Executed [0-9]+ tests?, with [1-9][0-9]* failures?"

# Swift Testing: a binding that is not applied.
mutate Sources/CaseStudies/Todos.swift \
  "  var body: some Reducer<State, Action> {
    BindingReducer()
  }" \
  "  var body: some Reducer<State, Action> {
    EmptyReducer()
  }" \
  "A state change does not match expectation" "description: \"Learn Composable Architecture\"" \
  "Test editTodo\(\) recorded an issue" "Test run with [0-9]+ tests in [0-9]+ suites failed"

# Swift Testing: a request the cancel button cannot cancel is still in flight at the end.
mutate Sources/CaseStudies/EffectsCancellation.swift \
  "        .cancellable(id: CancelID.factRequest)" "" \
  "effect\(s\) were still running when the test ended" \
  "Test trivia_CancelButtonCancelsRequest\(\) recorded an issue"

echo "import-swap: the restored case studies pass again"
swift build --build-tests >/dev/null
swift test --skip-build >"$LOG" 2>&1 || { cat "$LOG"; exit 1; }
echo "import-swap: ok: TCA tests pass unchanged on Patchbay, and fail when their reducers break"
