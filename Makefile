# Patchbay — build, test, benchmark.
#
#   make studio  build, then play the practice studio headless: its song and script rendered
#                to studio.wav, the final state hash printed, and the run replayed to it
#   make demo    build, then run the demo app (host-config/app.toml) with its script
#   make dev     run an app (APP=host-config/app.toml); saving a plugin's source rebuilds and
#                swaps it, state kept
#   make test    install system packages if missing, build every product, run every test
#   make test-under-load
#                make test with every core kept busy by other processes
#   make wasm-plugins
#                the bundled plugins built as WebAssembly, from C and Embedded Swift
#                (.build/wasm/NAME.wasm, docs/WASM.md)
#   make bench   run the benchmarks (Benchmarks/, release build), then make growth
#   make growth  the growth curves: measured, drawn and tabled in docs/BENCHMARKS.md
#   make bench-smoke
#                run every benchmark once, small, on the debug build (make test runs it)
#   make fuzz    run each parser under libFuzzer for FUZZ_SECONDS (Tests/Fuzz)
#   make format  format the sources with the toolchain's swift-format
#   make lint    check the sources are formatted (make test runs it)

SWIFT ?= swift
BIN = $(shell $(SWIFT) build --show-bin-path)
BENCH_BIN = $(shell $(SWIFT) build --package-path Benchmarks --show-bin-path)

# The project's own code builds without a warning: its manifests make every warning an error
# when this is set (a plugin package that depends on the SDK builds it as its toolchain likes).
export PATCHBAY_WARNINGS_AS_ERRORS := 1
# SwiftPM orders some compiler flags (a dependency's traits) by a hash that differs in every
# run; fixed, the SDK built here stays built for a `patchbay new` plugin's make, and back
# (its Makefile exports the same two variables).
export SWIFT_DETERMINISTIC_HASHING := 1
# chromium: DevTools' browser test (headless, driven through its DevTools protocol).
# jackd2: the JACK server the JACK output's tests and realtime-check start under a private
# name (`jackd -d dummy`, no sound card needed).
# liblilv-dev: LV2 plugin discovery (PatchbayLV2); x42-plugins, lsp-plugins-lv2: the real LV2
# plugins its tests run (an EQ, a compressor); synthv1-lv2: a packaged LV2 instrument (its Qt 6
# libraries come with jackd2's qjackctl already). wasi-libc, libclang-rt-dev-wasm32: the C
# library and compiler-rt builtins a plugin built as WebAssembly links
# (Sources/PatchbayWasmGuest/wasm-cc, with the toolchain's clang and wasm-ld).
SYSTEM_PACKAGES := libffi-dev libasound2-dev tmux libjack-jackd2-dev jackd2 libboost-dev chromium libspng-dev liblilv-dev x42-plugins lsp-plugins-lv2 synthv1-lv2 wasi-libc libclang-rt-dev-wasm32
# pipewire, pipewire-jack: PipeWire's JACK API, which the JACK backend's PipeWire test runs
# the app under (pw-jack, a private daemon with a dummy driver).
SYSTEM_PACKAGES_BARE := pipewire pipewire-jack

.PHONY: all deps build wasm-plugins studio demo dev test test-under-load test-isolated tsan fuzz fuzz-build fuzz-merge lint screenshots template-check import-swap-check sdk-test dev-check validate-check repro-check bench growth bench-smoke format clean

all: build

# Installs the Debian packages the build needs, when they are missing. PipeWire's without
# its recommends (a session manager, D-Bus, rtkit): the tests run their own daemon.
deps:
	@missing=""; \
	for pkg in $(SYSTEM_PACKAGES) $(SYSTEM_PACKAGES_BARE); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "install ok installed" \
	    || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "make: installing$$missing"; \
	    apt-get update -qq \
	      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES) \
	      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	        $(SYSTEM_PACKAGES_BARE); \
	  else \
	    echo "make: missing system packages:$$missing" >&2; \
	    echo "make: install them with: sudo apt-get install -y$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi

# Every product and test target of the root package, the benchmark package, and the
# WebAssembly builds of the bundled plugins.
build: deps
	$(SWIFT) build --build-tests
	# Planned afresh: a cached plan misses source files added to the root package since.
	$(SWIFT) build --package-path Benchmarks --disable-build-manifest-caching
	@$(MAKE) --no-print-directory wasm-plugins

# The bundled plugins that build as WebAssembly: .build/wasm/NAME.wasm (docs/WASM.md). The C
# ones with wasm-cc; Counter in Embedded Swift (Plugins/Counter/wasm) with wasm-swiftc, whose
# @Feature and #plugin run from the macro tool that `swift build` makes. Theory's functions
# are called through the module's exported function table.
WASM_PLUGINS := Echo Theory
WASM_SWIFT_PLUGINS := Counter
wasm-plugins: deps
	@mkdir -p .build/wasm
	@for plugin in $(WASM_PLUGINS); do \
	  Sources/PatchbayWasmGuest/wasm-cc -o .build/wasm/$$plugin.wasm Plugins/$$plugin/*.c \
	    || exit 1; \
	  echo "wasm-plugins: .build/wasm/$$plugin.wasm"; \
	done
	@test -x .build/debug/PatchbayMacros-tool || $(SWIFT) build --target PatchbayPlugin
	@for plugin in $(WASM_SWIFT_PLUGINS); do \
	  Sources/PatchbayWasmGuest/wasm-swiftc -o .build/wasm/$$plugin.wasm \
	    Plugins/$$plugin/wasm/*.swift || exit 1; \
	  echo "wasm-plugins: .build/wasm/$$plugin.wasm"; \
	done

# The practice studio (host-config/studio.toml), headless: the bundled song
# (host-config/songs/studio.mid, made by make-studio.py) and script on the sample clock, to
# studio.wav, with every change recorded to studio.jsonl and replayed. Its kept state goes to a
# folder of its own, so each run starts fresh and prints the same hash.
STUDIO_STATE := .build-studio-state
studio: deps
	$(SWIFT) build
	rm -rf $(STUDIO_STATE)
	XDG_STATE_HOME=$(CURDIR)/$(STUDIO_STATE) $(BIN)/patchbay render host-config/studio.toml \
	  --midi smf:host-config/songs/studio.mid --script host-config/studio.script \
	  --record studio.jsonl --out studio.wav
	$(BIN)/patchbay replay studio.jsonl

# The demo app, driven by its bundled script (`patchbay run host-config/app.toml` on a terminal is interactive).
demo: deps
	$(SWIFT) build
	$(BIN)/patchbay run host-config/app.toml --script host-config/demo.script --print-changes

# `patchbay validate` on every bundled plugin (and its WebAssembly build, where it has one) at
# strictness 5, with a fixed seed so a run is repeatable (`make validate-check SEED=9` for
# another); the Flawed fixture's flaws, each caught by its test, are in
# Tests/PatchbayCLITests/ValidateTests.swift.
BUNDLED_PLUGINS := Counter CounterAlt Home Practice Metronome Tuner MIDIMonitor ChordTrainer \
  Studio PracticeRoom Echo Synth SynthFM Drums Theory \
  $(WASM_PLUGINS:%=.build/wasm/%.wasm) $(WASM_SWIFT_PLUGINS:%=.build/wasm/%.wasm)
SEED ?= 1
validate-check: build
	$(BIN)/patchbay validate $(BUNDLED_PLUGINS) --strictness 5 --seed $(SEED) --provider Theory \
	  >.build/validate.log \
	  || { cat .build/validate.log; exit 1; }
	@grep -c "^PASS" .build/validate.log | xargs -I{} echo "validate-check: {} tests passed on $(words $(BUNDLED_PLUGINS)) plugins, none failed"

# No test asserts how fast the machine is: a test that waits for something waits for the event
# (a line, a file, a count), bounded only to stop a hang, and a timing outcome (how late the
# audio thread woke, how long a swap took) is a benchmark's, judged beside a bare C reference
# (Benchmarks/, docs/BENCHMARKS.md). make test-under-load checks that this holds. A crash of
# the test process prints every frame of every thread (SWIFT_BACKTRACE=preset=full), so that
# one seen once in CI can be found; so does a hang, past TEST_MINUTES (.ci/watchdog: the tests
# started and not finished, and every thread's stack), which then fails the run.
TEST_MINUTES ?= 30
test: lint build template-check import-swap-check sdk-test dev-check validate-check repro-check \
  bench-smoke tsan
	SWIFT_BACKTRACE=preset=full .ci/watchdog $(TEST_MINUTES) .build/swift-test.log $(SWIFT) test
	$(MAKE) --no-print-directory test-isolated

# docs/DEVTOOLS.md's pictures, taken by the browser test (docs/images/devtools-*.png).
screenshots: build
	PATCHBAY_WRITE_SCREENSHOTS=1 $(SWIFT) test --skip-build --filter DevToolsBrowserTests

# make test with every core kept busy by another process at the same priority (.ci/under-load):
# the whole of it must pass on a loaded machine as on a quiet one. Not part of make test (it
# takes about twice as long).
test-under-load:
	bash .ci/under-load $(MAKE) --no-print-directory test

# The host's plugin tests again, every plugin in a process of its own (PATCHBAY_ISOLATE=all),
# one at a time: each app starts a process per plugin, and two hundred apps at once on two
# cores leave the quiet checks waiting past their timeouts. Left out: calls to plugins'
# exported functions, which an isolated plugin makes in its own process (docs/SWAP.md, "Isolate
# a plugin"); and the LV2 tests that load a bundle built for them into the test's process
# (LV2World.loadBundle: the tone fixture, a preset for the x42 EQ), which the plugin's own
# process does not see.
ISOLATED_SKIP := FunctionCallTests|aSwapThatDropsAResolvedFunctionIsRefused|anInstrumentPlaysTheAppsMIDIAtItsFrame|aPresetWithThePluginsOwnStateMakesANewProcessor
test-isolated:
	PATCHBAY_ISOLATE=all $(SWIFT) test --skip-build --no-parallel --filter PatchbayHostTests \
	  --skip '$(ISOLATED_SKIP)'

# The SDK package's own tests (the macros' expansions), in the root's build folder so the SDK
# and swift-syntax are built once.
sdk-test: build
	$(SWIFT) test --package-path Sources/PatchbaySDK --scratch-path $(CURDIR)/.build

# `patchbay new` end to end: create a plugin package out of tree, build it, load it.
TEMPLATE_DIR := .build-template
template-check: build
	rm -rf $(TEMPLATE_DIR)
	$(BIN)/patchbay new Hello --path $(TEMPLATE_DIR) --patchbay $(CURDIR)
	@# A user's plugin inherits no warning: none from its code, the macros' expansions or the SDK.
	$(SWIFT) build --package-path $(TEMPLATE_DIR)/Hello >$(TEMPLATE_DIR)/build.log 2>&1 \
	  || { cat $(TEMPLATE_DIR)/build.log; exit 1; }
	@if grep "warning:" $(TEMPLATE_DIR)/build.log | grep -v "/.build/checkouts/"; then \
	  echo "template-check: building the new plugin printed the warnings above" >&2; exit 1; \
	fi
	$(BIN)/patchbay inspect $(TEMPLATE_DIR)/Hello/.build/debug/libHello.so --json \
	  | grep -q '"id": "com.example.hello"'
	@# Its Makefile builds in this checkout's build folder instead (the SDK built already), in
	@# a clean environment as a user's shell runs it (not this make's exports); how long that
	@# first build took is printed (docs/PLUGINS.md gives the figure; make bench does not time it).
	@start=$$(date +%s%N); \
	env -i PATH="$$PATH" HOME="$$HOME" make --no-print-directory -C $(TEMPLATE_DIR)/Hello inspect \
	  >$(TEMPLATE_DIR)/make.log 2>&1 || { cat $(TEMPLATE_DIR)/make.log; exit 1; }; \
	echo "template-check: first make inspect in the new plugin: $$((($$(date +%s%N) - start) / 1000000)) ms"
	grep -q "^Hello 0.1.0 (com.example.hello-plugin)" $(TEMPLATE_DIR)/make.log
	@# Its test target: one TestStore test, run by its make test.
	env -i PATH="$$PATH" HOME="$$HOME" make --no-print-directory -C $(TEMPLATE_DIR)/Hello test \
	  >$(TEMPLATE_DIR)/test.log 2>&1 || { cat $(TEMPLATE_DIR)/test.log; exit 1; }
	grep -q "Test run with 1 test.* passed" $(TEMPLATE_DIR)/test.log
	$(MAKE) --no-print-directory -C $(TEMPLATE_DIR)/Hello validate VALIDATE_FLAGS="--seed 1" \
	  >$(TEMPLATE_DIR)/validate.log 2>&1 || { cat $(TEMPLATE_DIR)/validate.log; exit 1; }
	@# The WebAssembly templates, in Embedded Swift and in C: each make test builds NAME.wasm and
	@# runs its test script, whose expect lines assert the state.
	@for language in swift c; do \
	  $(BIN)/patchbay new Wasm$$language --wasm $$language --path $(TEMPLATE_DIR) \
	    --patchbay $(CURDIR) >/dev/null || exit 1; \
	  env -i PATH="$$PATH" HOME="$$HOME" make --no-print-directory -C $(TEMPLATE_DIR)/Wasm$$language \
	    test >$(TEMPLATE_DIR)/wasm-$$language.log 2>&1 \
	    || { cat $(TEMPLATE_DIR)/wasm-$$language.log; exit 1; }; \
	  grep -q "^hello — 2 ping(s)$$" $(TEMPLATE_DIR)/wasm-$$language.log || exit 1; \
	done
	@echo "template-check: patchbay new → swift build, make → patchbay inspect, make test, validate; --wasm swift and c → make test: ok"

# The development loop end to end on the package template-check made: save a source file while
# the app runs with --rebuild; the plugin is rebuilt and swapped, state kept (Tests/DevLoop).
dev-check: template-check
	bash Tests/DevLoop/check.sh $(CURDIR)/$(TEMPLATE_DIR)/Hello

# The development loop: run APP; saving a plugin's source rebuilds it (swift build --product),
# and the running app swaps it in with its state. Quit with q (or Ctrl-C).
APP ?= host-config/app.toml
dev: deps
	$(SWIFT) build
	$(BIN)/patchbay run $(APP) --rebuild

# patchbay repro end to end: a crash shrunk to its four actions, and the Swift Testing test it
# writes built in a package of its own, failing with the plugin's fault and passing once mended
# (Tests/ReproCheck). In the root's build folder, where the host is built already.
repro-check: build
	REPRO_SCRATCH=$(CURDIR)/.build bash Tests/ReproCheck/check.sh

# TCA-style features on Patchbay with an import swap: their tests pass, and fail (XCTest and Swift
# Testing, exit code and diff) when a reducer is broken. A package of its own, so its test
# target links nothing but the Patchbay and PatchbayTesting products; built in the root's build
# folder, where the SDK and swift-syntax are built already (about 2 minutes less per make test).
import-swap-check: build
	IMPORT_SWAP_SCRATCH=$(CURDIR)/.build bash Tests/ImportSwap/check.sh

# The ABI and host benchmarks load the release builds of the plugins.
# The growth curves are exported, drawn (docs/benchmarks/growth-*.png) and tabled in
# docs/BENCHMARKS.md by GrowthReport.
GROWTH_RESULTS := $(CURDIR)/.build/growth
bench: deps
	$(SWIFT) build -c release
	$(SWIFT) build -c release --package-path Benchmarks --product BareJACKClient
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark --skip-target GrowthBenchmarks
	$(MAKE) growth

# Only the growth curves: measured, drawn and tabled.
growth: deps
	$(SWIFT) build -c release
	rm -rf $(GROWTH_RESULTS) && mkdir -p $(GROWTH_RESULTS)
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark --target GrowthBenchmarks \
	  --format histogramPercentiles --path $(GROWTH_RESULTS)
	cd Benchmarks && $(SWIFT) run -c release GrowthReport $(GROWTH_RESULTS) $(CURDIR)/docs

# Every benchmark once, with small workloads, against the debug build (Benchmarks/Support says
# how): a benchmark that crashes, or throws, fails the run. Its figures are not judged. Each
# executable's output goes to .build/bench-smoke-NAME.log.
BENCH_TARGETS := CoreBenchmarks AudioBenchmarks SoundBenchmarks GrowthBenchmarks
bench-smoke: build
	@for target in $(BENCH_TARGETS); do \
	  log=.build/bench-smoke-$$target.log; \
	  echo "bench-smoke: $$target"; \
	  if ! PATCHBAY_BENCH_SMOKE=1 $(BENCH_BIN)/$$target >$$log 2>&1; then \
	    tail -n 40 $$log; \
	    echo "bench-smoke: $$target failed; its whole output is in $$log" >&2; \
	    exit 1; \
	  fi; \
	  grep -c "^bench-smoke: ok:" $$log | xargs printf "bench-smoke: $$target: %s benchmarks ran\n"; \
	done

# ThreadSanitizer over every host suite that starts no process: the app queue, instances,
# navigation, swaps, shared state, functions, scripts, sound, the loader, with their plugins
# (the TSan build's own: tests search their own build's folder before a config's search paths,
# so one SDK is loaded). One kind of lock, LockedValue, a pthread mutex TSan sees.
# Left out, as they start processes: isolated plugins (IsolatedPluginTests, the isolated
# cases of EffectsAcrossSwapTests and SharedBetweenPluginsTests, and WasmFunctionTests' isolated
# caller of a wasm provider) and CSiblingLibraryTests (runs
# cc). Also LiveSessionJACKTests: libjack is not built for TSan, and TSan stops the run
# when one of libjack's own threads ends ("finished with ignores enabled"), before any of
# Patchbay's code is involved; the plain suite runs them. Also anIsolatedEffectSoundsAsInProcess
# (an LV2 feature in an isolated process) and synthv1PlaysTheAppsMIDI (synthv1 runs Qt, which
# is not built for TSan either). Its own build folder, so the plain build stays as it is. Any
# report fails.
TSAN_SKIP := IsolatedPluginTests|anIsolatedCallerRunsAWebAssemblyProviderUnderTheConfigsLimits|CSiblingLibraryTests|LiveSessionJACKTests|anIsolatedEffectSoundsAsInProcess|synthv1PlaysTheAppsMIDI|aTimerTicksAcrossARollback|aTimerThatResumesTicksOnAfterACrash|aTimerWithoutResumeTicksOnAfterACrash|anEffectThatEndedBeforeACrashStaysEnded|aChangeInOnePluginIsTheOthersAfterTheAction|aChangeMadeInAnEffectReachesTheOthers
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	@TSAN_OPTIONS="halt_on_error=1 $$TSAN_OPTIONS" $(SWIFT) test --skip-build --sanitize=thread \
	  --scratch-path .build-tsan --filter PatchbayHostTests --skip '$(TSAN_SKIP)' \
	  > .build-tsan/tsan.log 2>&1 \
	  || { tail -n 60 .build-tsan/tsan.log; echo "tsan: failed; the whole log is .build-tsan/tsan.log" >&2; exit 1; }
	@grep -q "WARNING: ThreadSanitizer" .build-tsan/tsan.log \
	  && { grep -A 30 "WARNING: ThreadSanitizer" .build-tsan/tsan.log; exit 1; } \
	  || grep "Test run with" .build-tsan/tsan.log | tail -n 1 | sed 's/^/tsan: /'

# The parsers under libFuzzer (Sources/PatchbayFuzzTargets says what each checks), with
# AddressSanitizer, each for FUZZ_SECONDS. New inputs go to .build-fuzz/corpus/TARGET, a crash
# to .build-fuzz/artifacts/ (then: make fuzz-merge, and a regression test). `make test` replays
# the committed corpus, Tests/Fuzz/Corpus/TARGET, without libFuzzer.
FUZZ_TARGETS := value action-text toml midi smf
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH := .build-fuzz
FUZZ_BIN := $(FUZZ_SCRATCH)/release/patchbay-fuzz
fuzz-build: deps
	$(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --product patchbay-fuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
	  -Xcc -fsanitize=fuzzer-no-link,address -Xlinker --export-dynamic

fuzz: fuzz-build
	@mkdir -p $(FUZZ_SCRATCH)/artifacts
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_SCRATCH)/corpus/$$target; rm -f $(FUZZ_SCRATCH)/artifacts/$$target-*; \
	  echo "fuzz: $$target for $(FUZZ_SECONDS) s"; \
	  PATCHBAY_FUZZ_TARGET=$$target $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_SCRATCH)/artifacts/$$target- \
	    $(FUZZ_SCRATCH)/corpus/$$target Tests/Fuzz/Corpus/$$target 2>&1 \
	    | grep -E "^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|stat::peak_rss|==|SUMMARY|Fatal|.*Violation|.*error)" \
	    || true; \
	  test -z "$$(ls $(FUZZ_SCRATCH)/artifacts/$$target-* 2>/dev/null)" \
	    || { echo "fuzz: $$target broke; the input is in $(FUZZ_SCRATCH)/artifacts/" >&2; exit 1; }; \
	done

# Folds what the fuzzers found into the committed corpus, keeping only inputs that add coverage.
fuzz-merge: fuzz-build
	@for target in $(FUZZ_TARGETS); do \
	  PATCHBAY_FUZZ_TARGET=$$target $(FUZZ_BIN) -merge=1 Tests/Fuzz/Corpus/$$target \
	    $(FUZZ_SCRATCH)/corpus/$$target 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files" || true; \
	done

# The project's Swift files: tracked or new, never a build folder's checkouts.
SWIFT_SOURCES = $(shell git ls-files --cached --others --exclude-standard '*.swift')

format:
	$(SWIFT) format --in-place $(SWIFT_SOURCES)

# Fails on the first file swift-format would change (.swift-format holds the style).
lint:
	@$(SWIFT) format lint --strict $(SWIFT_SOURCES)
	@echo "lint: $(words $(SWIFT_SOURCES)) Swift files formatted as .swift-format says: ok"

clean:
	rm -rf .build Benchmarks/.build Tests/ImportSwap/.build $(TEMPLATE_DIR) $(FUZZ_SCRATCH)
