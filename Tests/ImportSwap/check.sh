#!/usr/bin/env bash
# Features and tests written as TCA writes them, on Patchbay by changing one import line: the
# tests must pass as written, and fail — exit non-zero, print the diff, under XCTest and Swift
# Testing alike — when a reducer is broken. Run by `make test` (target import-swap-check).
#
# IMPORT_SWAP_SCRATCH names a build folder to build in: make passes the root's (.build), where
# the SDK and swift-syntax are built already, so this package costs only its own targets.
set -euo pipefail
cd "$(dirname "$0")"
LOG=.build/check.log
mkdir -p .build
scratch=()
[ -n "${IMPORT_SWAP_SCRATCH:-}" ] && scratch=(--scratch-path "$IMPORT_SWAP_SCRATCH")

echo "import-swap: building the features and their tests"
swift build "${scratch[@]}" --build-tests

echo "import-swap: the tests pass as written"
swift test "${scratch[@]}" --skip-build

# mutate FILE FROM TO EXPECT...: replaces FROM by TO in FILE (exactly once), rebuilds, runs the
# tests, and requires them to fail with every EXPECT (an extended regex) in the output.
mutate() {
  local file=$1 from=$2 to=$3
  shift 3
  # The original waits outside the target's folder: SwiftPM warns of any file it does not know.
  local original=".build/$(basename "$file").orig"
  mkdir -p .build
  cp "$file" "$original"
  # Restored files get a new time, so the next build sees them changed.
  trap 'mv "'"$original"'" "'"$file"'"; touch "'"$file"'"' EXIT
  python3 - "$file" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"import-swap: expected one '{old}' in {path}, found {text.count(old)}")
open(path, "w").write(text.replace(old, new))
PY
  echo "import-swap: breaking $file: '${from%%$'\n'*}'"
  swift build "${scratch[@]}" --build-tests >/dev/null
  if swift test "${scratch[@]}" --skip-build >"$LOG" 2>&1; then
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
  mv "$original" "$file"
  touch "$file"
  trap - EXIT
  echo "import-swap: failed as it must: $*"
}

# XCTest: a beat that wraps wrong is a state diff.
mutate Sources/CaseStudies/Metronome.swift \
  "state.beat = state.beat % state.beatsPerBar + 1" \
  "state.beat = (state.beat + 1) % state.beatsPerBar" \
  "A state change does not match expectation" "−   beat: 3" "\+   beat: 0" \
  "Executed [0-9]+ tests?, with [1-9][0-9]* failures?"

# Swift Testing: a binding that is not applied.
mutate Sources/CaseStudies/Playlist.swift \
  "  var body: some ReducerOf<Self> {
    BindingReducer()
  }" \
  "  var body: some ReducerOf<Self> {
    EmptyReducer()
  }" \
  "A state change does not match expectation" "title: \"Blue in Green\"" \
  "Test renamingATrack\(\) recorded an issue" "Test run with [0-9]+ tests in [0-9]+ suites failed"

# Swift Testing: a lookup the cancel button cannot cancel is still in flight at the end.
mutate Sources/CaseStudies/ChordLookup.swift \
  "        .cancellable(id: CancelID.lookup)" "" \
  "effect\(s\) were still running when the test ended" \
  "Test theCancelButtonCancelsTheLookup\(\) recorded an issue"

# Swift Testing: an alert that no button dismisses.
mutate Sources/CaseStudies/AlertsAndConfirmationDialogs.swift \
  "    .ifLet(\\.\$alert, action: \\.alert)
" "" \
  "A state change does not match expectation" "Test alert\(\) recorded an issue"

# Swift Testing: a recursive row whose rows run no reducer.
mutate Sources/CaseStudies/Recursion.swift \
  "    .forEach(\\.rows, action: \\.rows) {
      Self()" \
  "    .forEach(\\.rows, action: \\.rows) {
      EmptyReducer()" \
  "A state change does not match expectation" "Test rowsFiveLevelsDeep\(\) recorded an issue"

# Swift Testing: an unlabeled Scope that scopes to the wrong counter.
mutate Sources/CaseStudies/Recursion.swift \
  "Scope(\\.counter2, action: \\.counter2)" "Scope(\\.counter1, action: \\.counter2)" \
  "A state change does not match expectation" "Test twoCounters\(\) recorded an issue"

# Swift Testing: a shared value changed the wrong way.
mutate Sources/CaseStudies/SharedStateInMemory.swift \
  "          state.\$stats.withLock { \$0.increment() }" \
  "          state.\$stats.withLock { \$0.decrement() }" \
  "A state change does not match expectation" "Test sharedCounts\(\) recorded an issue"

echo "import-swap: the restored features pass again"
swift build "${scratch[@]}" --build-tests >/dev/null
swift test "${scratch[@]}" --skip-build >"$LOG" 2>&1 || { cat "$LOG"; exit 1; }
echo "import-swap: ok: TCA-style tests pass unchanged on Patchbay, and fail when their reducers break"
