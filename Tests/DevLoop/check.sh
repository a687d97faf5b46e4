#!/usr/bin/env bash
# The development loop end to end, as `make dev` runs it, by both routes a plugin is built:
#   own       `swift build` in the plugin's folder (its own .build)
#   checkout  the plugin's make, which builds in the checkout's .build: the plugin then loads
#             beside the bundled Swift plugins (here, Counter), linking the one SDK
# An app runs with --rebuild; the plugin's source is saved with an error (the build fails, and
# the script's `wait swap` ends at once with the compiler's reason); another run, and the
# source saved with a change: the plugin is rebuilt, --watch swaps it, and the new code runs
# with the old state. Run by `make test` (target dev-check) on the package
# `make template-check` made.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$ROOT" && swift build --show-bin-path)
PLUGIN=${1:-$ROOT/.build-template/Hello}
SOURCE=$PLUGIN/Sources/Hello/Hello.swift
WORK=$(mktemp -d)
cp "$SOURCE" "$WORK/Hello.swift.orig"
# user COMMAND…: runs it in a clean environment, as a user's shell would (not make's exports,
# which would build the SDK with other flags than the app's rebuilds do).
user() { env -i PATH="$PATH" HOME="$HOME" "$@"; }
cleanup() {
  cp "$WORK/Hello.swift.orig" "$SOURCE"
  (cd "$PLUGIN" && user swift build >/dev/null 2>&1) || true
  [ -n "${APP:-}" ] && kill "$APP" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

cat >"$WORK/dev.script" <<'SCRIPT'
send hello ping
send hello ping
expect hello /pings 2
wait swap 600000
send hello ping
expect hello /pings 12
SCRIPT
# A build that fails ends `wait swap` at once, with the compiler's reason.
cat >"$WORK/broken.script" <<'SCRIPT'
send hello ping
wait swap 600000
SCRIPT

# now_ms: milliseconds since the epoch.
now_ms() { date +%s%3N; }

# wait_for TEXT SECONDS: until the app's stderr holds TEXT; fails when the app ends first.
wait_for() {
  local deadline=$(($(date +%s) + $2))
  until grep -qF -- "$1" "$WORK/stderr"; do
    if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$APP" 2>/dev/null; then
      cat "$WORK/stdout" "$WORK/stderr"
      echo "dev-check: FAIL: no '$1' (within $2 s, while the app ran)" >&2
      exit 1
    fi
    sleep 0.01
  done
}

# replace FROM TO: saves the source with FROM replaced by TO (an editor's save: one write).
replace() {
  python3 - "$SOURCE" "$1" "$2" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"dev-check: expected one '{old}' in {path}")
open(path, "w").write(text.replace(old, new))
PY
}

# start_app SCRIPT: the app, rebuilding and running $WORK/SCRIPT.script, once it watches Hello.
start_app() {
  user "$BIN/patchbay" run "$WORK/app.toml" --rebuild \
    --script "$WORK/$1.script" >"$WORK/stdout" 2>"$WORK/stderr" &
  APP=$!
  wait_for "rebuild: watching the sources of" 120
  if ! grep -q "rebuild: watching the sources of.*Hello" "$WORK/stderr"; then
    cat "$WORK/stderr"
    echo "dev-check: FAIL: Hello's sources are not watched" >&2
    exit 1
  fi
}

# loop ROUTE: the whole loop, with the plugin built by ROUTE (own or checkout).
loop() {
  local route=$1 plugin load
  cp "$WORK/Hello.swift.orig" "$SOURCE"
  : >"$WORK/stderr"
  if [ "$route" = own ]; then
    echo "dev-check [$route]: building Hello as generated (swift build in its folder)"
    (cd "$PLUGIN" && user swift build >/dev/null)
    plugin="$PLUGIN/.build/debug/libHello.so"
    load="\"$plugin\""
  else
    echo "dev-check [$route]: building Hello with its make (in the checkout's .build), as a user's shell runs it"
    user make --no-print-directory -C "$PLUGIN" build >/dev/null
    plugin="$BIN/libHello.so"
    load="\"$plugin\", \"$BIN/libCounter.so\""
  fi
  cat >"$WORK/app.toml" <<TOML
[app]
root = "hello"
[plugins]
load = [$load]
[[feature]]
key = "hello"
id = "com.example.hello"
TOML

  start_app broken
  echo "dev-check [$route]: saving a change that does not compile"
  replace "state.pings += 1" "state.pings += oops"
  wait_for "rebuild: Hello failed; the running code stays" 600
  status=0
  wait "$APP" || status=$?
  APP=
  if [ "$status" != 1 ] || ! grep -q "wait swap: the swap was refused: rebuild: Hello failed" "$WORK/stderr"; then
    cat "$WORK/stdout" "$WORK/stderr"
    echo "dev-check [$route]: FAIL: wait swap did not end at once on the failed build (status $status)" >&2
    exit 1
  fi
  echo "dev-check [$route]: the failed build ended wait swap with the compiler's reason"

  : >"$WORK/stderr"
  start_app dev
  echo "dev-check [$route]: saving ping adding 10"
  replace "state.pings += oops" "state.pings += 10"
  saved=$(now_ms)
  wait_for "watch: swapped com.example.hello" 600
  running=$(now_ms)
  status=0
  wait "$APP" || status=$?
  APP=
  if [ "$status" != 0 ]; then
    cat "$WORK/stdout" "$WORK/stderr"
    echo "dev-check [$route]: FAIL: the script ended with $status (expected pings 2 → 12 on the new code)" >&2
    exit 1
  fi
  grep -E "^(rebuild|watch):" "$WORK/stderr"
  echo "dev-check [$route]: saved → new code running with the old state in $((running - saved)) ms: ok"
}

loop own
loop checkout
