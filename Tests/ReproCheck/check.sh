#!/usr/bin/env bash
# patchbay repro end to end, through the test it writes: a run of the Lock fixture
# (Plugins/Fixtures/Numbered/Lock.swift) that crashes after four particular actions among 300
# is shrunk to those four; the Swift Testing test repro writes is built in a package of its own,
# which depends on this checkout's PatchbayHarness product, and must fail while the plugin has
# the fault and pass once the app loads the mended build. Run by `make test` (repro-check).
#
# REPRO_SCRATCH names the build folder to build the package in: make passes the root's
# (.build), where the host is built already, so the package costs only its test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/.build/debug
work=$root/.build-repro
rm -rf "$work"
mkdir -p "$work/app" "$work/package/Tests/ReproTests"
cp "$bin/libTestFixtureNumbered.so" "$work/app/libLock.so"
cp "$bin/libTestFixtureNumbered.so" "$work/app/libLockFixed.so"
ln -s "$bin/libPatchbaySDK.so" "$work/app/libPatchbaySDK.so"
cat >"$work/app/lock.toml" <<'TOML'
[app]
name = "Lock"
root = "lock"

[plugins]
search-paths = ["."]
load = ["Lock"]

[[feature]]
key = "lock"
id = "dev.patchbay.fixture.lock"
TOML
python3 - >"$work/app/run.script" <<'PY'
import random
random.seed(43)
lines = [random.choice([f"send lock turn(by: {random.randint(-50, 50)})",
                        f"send lock dial({random.choice([0, 6, 8])})"]) for _ in range(300)]
for at, digit in [(75, 3), (150, 1), (225, 4)]:
    lines.insert(at, f"send lock dial({digit})")
print("\n".join(lines + ["send lock dial(1)"]))
PY
cd "$work"
if "$bin/patchbay" run app/lock.toml --script app/run.script --record run.jsonl >run.log 2>&1; then
  cat run.log
  echo "repro-check: FAIL: the run did not crash" >&2
  exit 1
fi
"$bin/patchbay" repro run.jsonl --out repro >repro.log 2>&1 || { cat repro.log; exit 1; }
grep -q "^kept 4 of 304 steps, dropped 300, in " repro.log || { cat repro.log; exit 1; }
echo "repro-check: $(grep '^kept 4 of 304 steps, dropped' repro.log)"

# The package: the written test, nothing else. The checkout's identity is its folder's name.
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
cp repro/LockReproTests.swift package/Tests/ReproTests/
cat >package/Package.swift <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ReproCheck",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "$root")],
  targets: [
    .testTarget(
      name: "ReproTests",
      dependencies: [.product(name: "PatchbayHarness", package: "$identity")])
  ]
)
SWIFT
scratch=()
[ -n "${REPRO_SCRATCH:-}" ] && scratch=(--scratch-path "$REPRO_SCRATCH")
swift build --package-path package "${scratch[@]}" --build-tests >build.log 2>&1 \
  || { cat build.log; exit 1; }
if swift test --package-path package "${scratch[@]}" --skip-build >faulty.log 2>&1; then
  cat faulty.log
  echo "repro-check: FAIL: the written test passed while the plugin crashes" >&2
  exit 1
fi
grep -q "a plugin crashed the app with SIGILL" faulty.log || { cat faulty.log; exit 1; }
echo "repro-check: the written test fails with the plugin's crash"
sed -i 's/load = \["Lock"\]/load = ["LockFixed"]/' app/lock.toml
swift test --package-path package "${scratch[@]}" --skip-build >mended.log 2>&1 \
  || { cat mended.log; echo "repro-check: FAIL: the written test fails with the mended plugin" >&2; exit 1; }
echo "repro-check: and passes once the app loads the mended build"
