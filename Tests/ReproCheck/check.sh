#!/usr/bin/env bash
# patchbay repro end to end, through the tests it writes: a run of the Lock fixture
# (Plugins/Fixtures/Numbered/Lock.swift) that crashes after four particular actions among 300
# is shrunk to those four. Repro writes its test twice: as a TestStore test of Lock (it finds
# Lock's source through this checkout's build folder, the package around the folder it runs
# in) and, with --harness, as a test through the built plugin. Both are built in a package of
# their own, which depends on this checkout's products, and each must fail while the plugin has
# the fault and pass once mended: the app loads the mended build (the harness test), or the
# fault is off (PATCHBAY_LOCK_MENDED, the TestStore test). Run by `make test` (repro-check).
#
# REPRO_SCRATCH names the build folder to build the package in: make passes the root's
# (.build), where the host is built already, so the package costs only its tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/.build/debug
work=$root/.build-repro
rm -rf "$work"
mkdir -p "$work/app"
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
grep -q "^the test is a TestStore test of Lock " repro.log || { cat repro.log; exit 1; }
"$bin/patchbay" repro run.jsonl --out repro-harness --harness >repro-harness.log 2>&1 \
  || { cat repro-harness.log; exit 1; }
grep -q "^the test is through the built plugin" repro-harness.log \
  || { cat repro-harness.log; exit 1; }

# A package for each written test, nothing else in it: one test binary with both would link
# Lock's module and load Lock's plugin too, and the plugin's calls would land in the linked
# copy. The checkout's identity is its folder's name.
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
# package NAME DEPENDENCIES: Package.swift of a test target ReproTests.
package() {
  mkdir -p "$1/Tests/ReproTests"
  cat >"$1/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "$1",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "$root"), .package(path: "$root/Sources/PatchbaySDK")],
  targets: [.testTarget(name: "ReproTests", dependencies: [$2])]
)
SWIFT
}
package store '.product(name: "TestFixtureNumbered", package: "'"$identity"'"),
  .product(name: "PatchbaySDK", package: "PatchbaySDK"),
  .product(name: "PatchbayTestReporting", package: "PatchbaySDK")'
package harness '.product(name: "PatchbayHarness", package: "'"$identity"'")'
cp repro/LockReproTests.swift store/Tests/ReproTests/
cp repro-harness/LockReproTests.swift harness/Tests/ReproTests/
scratch=()
[ -n "${REPRO_SCRATCH:-}" ] && scratch=(--scratch-path "$REPRO_SCRATCH")
for name in store harness; do
  swift build --package-path "$name" "${scratch[@]}" --build-tests >"$name-build.log" 2>&1 \
    || { cat "$name-build.log"; exit 1; }
done

# faulty PACKAGE SAID: its test fails, saying SAID.
faulty() {
  if swift test --package-path "$1" "${scratch[@]}" --skip-build >"$1-faulty.log" 2>&1; then
    cat "$1-faulty.log"
    echo "repro-check: FAIL: the $1 test passed while the plugin crashes" >&2
    exit 1
  fi
  grep -q "$2" "$1-faulty.log" || { cat "$1-faulty.log"; exit 1; }
  echo "repro-check: the $1 test fails with the plugin's crash"
}
# mended PACKAGE: its test passes.
mended() {
  swift test --package-path "$1" "${scratch[@]}" --skip-build >"$1-mended.log" 2>&1 \
    || { cat "$1-mended.log"; echo "repro-check: FAIL: the $1 test fails, mended" >&2; exit 1; }
  echo "repro-check: and passes once the plugin is mended"
}
# The TestStore test runs Lock's source, mended by the fixture's switch.
faulty store "Fatal error: Index out of range"
PATCHBAY_LOCK_MENDED=1 mended store
# The harness test loads the app's plugin, mended by loading the mended build.
faulty harness "a plugin crashed the app with SIGILL"
sed -i 's/load = \["Lock"\]/load = ["LockFixed"]/' app/lock.toml
mended harness
