// swift-tools-version: 6.2
import PackageDescription

/// A library of the SDK package, linked statically (the host, and tests of the core).
func sdk(_ product: String) -> Target.Dependency {
  .product(name: product, package: "PatchbaySDK")
}

/// Every target of the host, for what uses the host as a whole (the CLI, its tests).
let host: [Target.Dependency] = [
  "PatchbayHost", "PatchbayLoader", "PatchbayFunctions", "PatchbayConfig", "PatchbayAudioGraph",
  "PatchbayLV2Feature", "PatchbayWasm",
  "PatchbayScript", "PatchbayIsolation", "PatchbayAppQueue", "PatchbayPersistence",
  "PatchbayStateDiff", "PatchbayWatch", "PatchbayDevTools", "PatchbayPlot", "PatchbaySharedBoard",
  "PatchbayRouting", "PatchbayFlight", "PatchbayInstanceTree", "PatchbayAppError",
  "PatchbayFunctionTable", "PatchbayDigest",
]

/// What a Swift plugin's features link: the SDK as one shared library, `libPatchbaySDK.so`.
let sharedSDK = sdk("PatchbaySDK")

let package = Package(
  name: "Patchbay",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "patchbay", targets: ["PatchbayCLI"]),
    .executable(name: "patchbay-isolated", targets: ["patchbay-isolated"]),
    .executable(name: "patchbay-probe", targets: ["patchbay-probe"]),
    // The host, for an app of your own: load plugins, run an app, play it, script it.
    .library(
      name: "PatchbayHost",
      targets: [
        "PatchbayHost", "PatchbayLoader", "PatchbayFunctions", "PatchbayConfig",
        "PatchbayAudioGraph",
        "PatchbayScript", "PatchbayIsolation", "PatchbayAppQueue", "PatchbayPersistence",
        "PatchbayStateDiff", "PatchbayWatch", "PatchbayDevTools", "PatchbayPlot",
        "PatchbaySharedBoard", "PatchbayRouting", "PatchbayFlight", "PatchbayInstanceTree",
        "PatchbayAppError", "PatchbayFunctionTable", "PatchbayWasm",
      ]),
    // Tests of built plugins through the host (what `patchbay repro` writes its tests with).
    .library(name: "PatchbayHarness", targets: ["PatchbayHarness"]),
    .library(name: "PatchbayRealtime", targets: ["PatchbayRealtime"]),
    .library(name: "PatchbayAudioDevice", targets: ["PatchbayAudioDevice"]),
    .library(name: "PatchbayMIDI", targets: ["PatchbayMIDI"]),
    .library(name: "PatchbayJACK", targets: ["PatchbayJACK"]),
    .library(name: "PatchbayLV2", targets: ["PatchbayLV2", "CPatchbayInterleave"]),
    .library(name: "PatchbayTOML", targets: ["PatchbayTOML"]),
    // Feature plugins: each a shared library the host loads with dlopen.
    .library(name: "Counter", type: .dynamic, targets: ["CounterFeature"]),
    .library(name: "CounterAlt", type: .dynamic, targets: ["CounterAltFeature"]),
    .library(name: "Echo", type: .dynamic, targets: ["EchoPlugin"]),
    .library(name: "Home", type: .dynamic, targets: ["HomeFeature"]),
    .library(name: "Practice", type: .dynamic, targets: ["PracticeFeature"]),
    .library(name: "Metronome", type: .dynamic, targets: ["MetronomeFeature"]),
    .library(name: "Synth", type: .dynamic, targets: ["SynthPlugin"]),
    .library(name: "SynthFM", type: .dynamic, targets: ["SynthFMPlugin"]),
    .library(name: "Drums", type: .dynamic, targets: ["DrumsPlugin"]),
    .library(name: "PracticeRoom", type: .dynamic, targets: ["PracticeRoomFeature"]),
    .library(name: "MIDIMonitor", type: .dynamic, targets: ["MIDIMonitorFeature"]),
    .library(name: "ChordTrainer", type: .dynamic, targets: ["ChordTrainerFeature"]),
    .library(name: "Studio", type: .dynamic, targets: ["StudioFeature"]),
    .library(name: "Theory", type: .dynamic, targets: ["TheoryPlugin"]),
    .library(name: "Tuner", type: .dynamic, targets: ["TunerFeature"]),
    // Broken on purpose, for the loader's bad-input tests.
    .library(name: "TestFixtureMisbehaving", type: .dynamic, targets: ["MisbehavingFixture"]),
    .library(name: "TestFixtureNoEntry", type: .dynamic, targets: ["NoEntryFixture"]),
    // An LV2 plugin with a worker, for PatchbayLV2's tests.
    .library(name: "TestFixtureLV2Worker", type: .dynamic, targets: ["LV2WorkerFixture"]),
    // A processor and a reducer that misbehave when told (NaN, +60 dB, crash, spin, hang).
    .library(name: "TestFixtureHostile", type: .dynamic, targets: ["HostileFixture"]),
    // Counter under an id from its file name: copies of it are distinct plugins (benchmarks).
    .library(name: "TestFixtureNumbered", type: .dynamic, targets: ["NumberedFixture"]),
    .library(name: "TestFixtureFlawed", type: .dynamic, targets: ["FlawedFixture"]),
  ],
  dependencies: [
    // The SDK every Swift plugin links as one shared library (see its manifest).
    .package(path: "Sources/PatchbaySDK"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
    // HTTP and WebSocket for DevTools (no dependencies of its own: it builds in seconds).
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // WebAssembly plugins run in its interpreter (pure Swift; about a minute to build).
    .package(url: "https://github.com/swiftwasm/WasmKit", exact: "0.4.2"),
  ],
  targets: [
    // The host, by concern (docs/ARCHITECTURE.md has the map). From the bottom up:
    // the app queue, the one serial executor that owns an app's state, and what it owns;
    .target(name: "PatchbayAppQueue", dependencies: ["CPatchbayTicks", "CPatchbayThreadMark"]),
    // the CPU's tick counter, for timing a reduce in a few nanoseconds;
    .target(name: "CPatchbayTicks"),
    // which executor's job runs on a thread, as a C thread-local (no call into libc);
    .target(name: "CPatchbayThreadMark"),
    // libffi calls and stable trampolines to plugins' exported functions;
    .target(
      name: "PatchbayFunctions",
      dependencies: [sdk("PatchbayEncoding"), "CFFI", "CPatchbayFFITrampolines"]
    ),
    // finding, checking and loading plugin files, the registry of what loaded, the interface
    // the host calls a feature's code through (FeatureCode), and the pb_host table and services
    // that code calls back;
    .target(
      name: "PatchbayLoader",
      dependencies: [
        "PatchbayAppQueue", "PatchbayFunctions", "PatchbayDigest", "PatchbayELF", sdk("Patchbay"),
        sdk("PatchbayABI"), sdk("PatchbayEncoding"), "CPatchbayCrash",
      ]
    ),
    // ELF shared objects read as files: whole or not, what they need, their build id;
    .target(name: "PatchbayELF"),
    // SHA-256, for pinning plugin files and checking kept state;
    .target(name: "PatchbayDigest"),
    // plugins in processes of their own: the calls across shared memory, restarts after a
    // crash or a hang (the child they run in is `patchbay-isolated`);
    .target(
      name: "PatchbayIsolation",
      dependencies: [
        "PatchbayAppQueue", "PatchbayLoader", "CPatchbayChannel", "CPatchbayCrash",
        "CPatchbayProcessGroup", sdk("Patchbay"), sdk("PatchbayABI"),
      ]
    ),
    // host-config files: the app's nodes, routes, plugins, limits, audio and MIDI settings;
    .target(
      name: "PatchbayConfig",
      dependencies: [
        "PatchbayLoader", "PatchbayIsolation", "PatchbayTOML", "PatchbayAudioDevice",
        "PatchbayMIDI", "PatchbayLV2Feature", "PatchbayWasm",
      ]
    ),
    // what an action changed in a state, as lines (`--print-changes`);
    .target(
      name: "PatchbayStateDiff", dependencies: [sdk("Patchbay"), sdk("PatchbayEncoding")]),
    // the state of `persist = true` features, kept across runs;
    .target(
      name: "PatchbayPersistence",
      dependencies: ["PatchbayAppQueue", "PatchbayLoader", "PatchbayDigest"]),
    // an app's live instances by path: found, added and removed at a cost that does not grow
    // with the app;
    .target(name: "PatchbayInstanceTree", dependencies: ["PatchbayConfig"]),
    // what a running app refused, why, and what to do (every command's error);
    .target(name: "PatchbayAppError", dependencies: ["PatchbayConfig", "PatchbayFunctions"]),
    // the functions plugins resolved from each other in one app, each behind a trampoline
    // that a swap of its provider points at the new code;
    .target(
      name: "PatchbayFunctionTable",
      dependencies: [
        "PatchbayAppError", "PatchbayFunctions", "PatchbayLoader", sdk("Patchbay"),
        sdk("PatchbayEncoding"),
      ]),
    // the app: its instances, each owned by the app queue, navigation, swaps, changes;
    .target(
      name: "PatchbayHost",
      dependencies: [
        "PatchbayAppQueue", "PatchbayLoader", "PatchbayConfig", "PatchbayFunctions",
        "PatchbayInstanceTree", "PatchbayAppError", "PatchbayFunctionTable",
        "PatchbayPersistence", "PatchbayStateDiff", "PatchbaySharedBoard", "PatchbayRouting",
        "PatchbayFlight", sdk("Patchbay"),
        sdk("PatchbayABI"),
        sdk("PatchbayEncoding"), .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    // watching plugin files and swapping each rebuilt one in (`run --watch`, `patchbay dev`);
    .target(
      name: "PatchbayWatch", dependencies: ["PatchbayHost", "PatchbayLoader", "PatchbayELF"]),
    // sound: the processor graph an app plays through, live audio and MIDI, offline render;
    .target(
      name: "PatchbayAudioGraph",
      dependencies: [
        "PatchbayHost", "PatchbayLoader", "PatchbayConfig", sdk("PatchbayABI"),
        sdk("PatchbayEncoding"), "PatchbayAudioDevice", "PatchbayJACK", "PatchbayMIDI",
        "PatchbayRealtime", "CPatchbayCrash", "CPatchbaySampleChecks",
      ]
    ),
    // driving an app from outside: the script language, and recordings and their replay.
    .target(
      name: "PatchbayScript",
      dependencies: [
        "PatchbayHost", "PatchbayLoader", "PatchbayFlight", sdk("Patchbay"),
        sdk("PatchbayEncoding"),
      ]
    ),
    // DevTools: the running app, or a recording, served to a browser (`run --devtools`).
    .target(
      name: "PatchbayDevTools",
      dependencies: [
        "PatchbayHost", "PatchbayAppQueue", "PatchbayLoader", "PatchbayIsolation", "PatchbayScript",
        "PatchbayStateDiff",
        "PatchbayConfig", "PatchbayAudioGraph", "PatchbayMIDI", "PatchbayPlot",
        sdk("PatchbayEncoding"), .product(name: "FlyingFox", package: "FlyingFox"),
      ]
    ),
    // Pictures of sound: a render's waveform, level and spectrum as a PNG (`render --plot`),
    // and the spectrum DevTools' page draws.
    .target(name: "PatchbayPlot", dependencies: ["CSPNG"]),
    // The bookkeeping of shared state between instances (ABI 2.6, `@Shared` across plugins):
    // who publishes, reads and holds each name.
    .target(name: "PatchbaySharedBoard", dependencies: [sdk("PatchbayEncoding")]),
    // Navigation as state: the router, a pure reducer of the stack and the sheet, checked
    // against the app's feature tree.
    .target(
      name: "PatchbayRouting",
      dependencies: [sdk("Patchbay"), "PatchbayConfig", "PatchbayFunctions", "PatchbayLoader"]),
    // The part of TOML that host-config files use, with the line of every key.
    .target(name: "PatchbayTOML"),
    // The flight recorder's file: the app's last actions, from a checkpoint on, in a file
    // mapped into memory, so a crash or a kill leaves them (`patchbay repro` reads them).
    .target(name: "PatchbayFlight"),
    // `patchbay repro`: a failing run shrunk to the fewest actions, as a script and a test.
    .target(
      name: "PatchbayRepro",
      dependencies: [
        "PatchbayValidation", "PatchbayScript", "PatchbayHost", "PatchbayConfig",
        sdk("PatchbayEncoding"),
      ]
    ),
    // The development loop: a plugin's package found from its file, rebuilt when a source is
    // saved (`patchbay run --rebuild`).
    .target(name: "PatchbayRebuild", dependencies: ["PatchbayHost", "PatchbayWatch"]),
    // The packages `patchbay new` writes: a Swift plugin, or a WebAssembly one (Swift or C).
    .target(name: "PatchbayTemplates"),
    // An app of built plugins driven by a test: PluginHarness.
    .target(
      name: "PatchbayHarness",
      dependencies: [
        "PatchbayHost", "PatchbayConfig", "PatchbayLoader", "PatchbayAudioGraph",
        "PatchbayAudioDevice", "PatchbayScript",
      ]),
    // What the fuzzers check of each parser (`make fuzz`); the tests replay their corpus.
    .target(
      name: "PatchbayFuzzTargets",
      dependencies: [sdk("PatchbayEncoding"), sdk("PatchbayABI"), "PatchbayTOML", "PatchbayMIDI"]
    ),
    // One parser under libFuzzer (`make fuzz`); built plainly, it replays inputs:
    // `patchbay-fuzz value crash-1234`.
    .executableTarget(name: "patchbay-fuzz", dependencies: ["PatchbayFuzzTargets"]),
    // libasound, for audio output and MIDI input (apt-get install libasound2-dev).
    .systemLibrary(
      name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]
    ),
    // libffi, for calling plugins' exported functions (apt-get install libffi-dev).
    .systemLibrary(
      name: "CSPNG", path: "Sources/CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]
    ),
    .systemLibrary(
      name: "CFFI", path: "Sources/CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]
    ),
    // Names the plugin call a crash happened in (an async-signal-safe handler, in C).
    .target(name: "CPatchbayCrash"),
    // The processes a run starts, in one process group that ends with the run.
    .target(name: "CPatchbayProcessGroup"),
    // The shared memory and futexes between the host and an isolated plugin's process.
    .target(name: "CPatchbayChannel", dependencies: [sdk("PatchbayABI"), "CPatchbayCrash"]),
    // The process an isolated plugin runs in; the host starts it from beside its own executable.
    .executableTarget(
      name: "patchbay-isolated",
      dependencies: [
        "PatchbayIsolation", "PatchbayAppQueue", "PatchbayLoader", "PatchbayFunctions",
        "CPatchbayChannel", "CPatchbayCrash", "PatchbayRealtime", "PatchbayLV2Feature",
        "PatchbayWasm", sdk("PatchbayABI"),
      ]),
    // What the host checks of processors' samples every period: NaN and infinities, clipping.
    .target(name: "CPatchbaySampleChecks"),
    // Trampolines that keep their address while the function behind them is swapped.
    .target(name: "CPatchbayFFITrampolines", dependencies: ["CFFI"]),
    // Keeps ALSA's own stderr messages for Patchbay's one-line errors.
    .target(name: "CPatchbayALSAErrors", dependencies: ["CALSA"]),
    // What the realtime threads share: the SPSC ring, and a SCHED_FIFO thread.
    .target(name: "PatchbayRealtime"),
    // The audio thread and its outputs (ALSA, WAV file, paced null device).
    .target(
      name: "PatchbayAudioDevice",
      dependencies: ["PatchbayRealtime", "CALSA", "CPatchbayALSAErrors"]),
    // LV2 plugins: discovery through lilv, instances the host runs.
    .systemLibrary(name: "CLilv", path: "Sources/CLilv", providers: [.apt(["liblilv-dev"])]),
    .target(name: "PatchbayLV2", dependencies: ["CLilv", "PatchbayRealtime"]),
    // An installed LV2 plugin as a feature: its controls the state, its run the processor.
    .target(
      name: "PatchbayLV2Feature",
      dependencies: [
        "PatchbayLV2", "PatchbayLoader", "CPatchbayInterleave", sdk("PatchbayEncoding"),
        sdk("PatchbayABI"),
      ]),
    // WebAssembly modules as plugins, run by WasmKit: fuel and memory bound each call.
    .target(
      name: "PatchbayWasm",
      dependencies: [
        "PatchbayLoader", sdk("Patchbay"), sdk("PatchbayABI"), "PatchbayFunctions", "CFFI",
        "CPatchbayFFITrampolines",
        .product(name: "WasmKit", package: "WasmKit"),
      ]),
    // Between the interleaved mix and a plugin's planar channels.
    .target(name: "CPatchbayInterleave"),
    // The app's sound as a JACK client (or PipeWire's JACK API): ports, the process callback.
    .systemLibrary(name: "CJACK", path: "Sources/CJACK", providers: [.apt(["libjack-jackd2-dev"])]),
    .target(
      name: "PatchbayJACK",
      dependencies: ["CJACK", "PatchbayAudioDevice", "PatchbayMIDI", "PatchbayRealtime"]),
    // MIDI 1.0: the byte parser, and sources (ALSA sequencer and rawmidi, byte streams, SMF).
    .target(
      name: "PatchbayMIDI", dependencies: ["PatchbayRealtime", "CALSA", "CPatchbayALSAErrors"]),
    // Proves the realtime paths allocate nothing (run by the tests): `.build/debug/realtime-check`.
    .target(
      name: "RealtimeCheckSupport",
      dependencies: [.product(name: "MallocInterposerSwift", package: "malloc-interposer")]
    ),
    .executableTarget(
      name: "realtime-check",
      dependencies: [
        "PatchbayAudioDevice", "PatchbayMIDI", "PatchbayJACK", "PatchbayJACKProbe", "PatchbayLV2",
        "PatchbayLV2Fixtures", "RealtimeCheckSupport",
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ] + host
    ),
    // `patchbay validate`: the checks a plugin author runs before shipping.
    .target(
      name: "PatchbayValidation",
      dependencies: [
        sdk("PatchbayEncoding"), "PatchbayAudioDevice", "PatchbayMIDI", "CPatchbayGuardedBlock",
        "CPatchbayProcessGroup",
      ] + host),
    // Memory a plugin may touch only while it is lent out (the validator's parameter block).
    .target(name: "CPatchbayGuardedBlock"),
    // Counts the locks and system calls one thread makes (libc's functions, replaced).
    .target(name: "CPatchbayBlockingCallCounter"),
    // The child the validator runs its realtime tests in: the counters replace malloc and
    // libc's locks and I/O for the whole process, so the executable exports its symbols.
    .executableTarget(
      name: "patchbay-probe",
      dependencies: [
        "PatchbayValidation", "CPatchbayBlockingCallCounter", "RealtimeCheckSupport",
        "CPatchbayProcessGroup",
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ],
      linkerSettings: [
        .unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux])),
        .linkedLibrary("dl"),
      ]),
    // What the command line writes: every line made safe for a terminal first.
    .target(name: "PatchbayTerminalText"),
    // The command line.
    .executableTarget(
      name: "PatchbayCLI",
      dependencies: [
        "PatchbayTerminalText",
        sdk("PatchbayEncoding"), "PatchbayAudioDevice", "PatchbayJACK", "PatchbayLV2",
        "PatchbayMIDI",
        "PatchbayValidation",
        "PatchbayRepro", "PatchbayRebuild", "PatchbayTemplates", "CPatchbayProcessGroup",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ] + host
    ),
    // Each Swift plugin: one target, its features and `#plugin` (tests link it as a library).
    // Plugins/Counter/wasm: the same Counter in Embedded Swift, built as WebAssembly by
    // `make wasm-plugins` (Sources/PatchbayWasmGuest/wasm-swiftc), not by SwiftPM.
    .target(
      name: "CounterFeature", dependencies: [sharedSDK], path: "Plugins/Counter",
      exclude: ["wasm"]),
    .target(name: "CounterAltFeature", dependencies: [sharedSDK], path: "Plugins/CounterAlt"),
    .target(name: "EchoPlugin", dependencies: [sdk("PatchbayABI")], path: "Plugins/Echo"),
    .target(
      name: "SynthPlugin", dependencies: [sdk("PatchbayABI")], path: "Plugins/Synth",
      linkerSettings: [.linkedLibrary("m")]),
    .target(
      name: "SynthFMPlugin", dependencies: [sdk("PatchbayABI")], path: "Plugins/SynthFM",
      cSettings: [.headerSearchPath("../Synth/include")],
      linkerSettings: [.linkedLibrary("m")]),
    .target(
      name: "DrumsPlugin", dependencies: [sdk("PatchbayABI")], path: "Plugins/Drums",
      linkerSettings: [.linkedLibrary("m")]),
    .target(
      name: "TheoryPlugin", dependencies: [sdk("PatchbayABI")], path: "Plugins/Theory",
      linkerSettings: [.linkedLibrary("m")]),
    .target(name: "HomeFeature", dependencies: [sharedSDK], path: "Plugins/Home"),
    .target(name: "PracticeFeature", dependencies: [sharedSDK], path: "Plugins/Practice"),
    .target(name: "MetronomeFeature", dependencies: [sharedSDK], path: "Plugins/Metronome"),
    .target(name: "TunerFeature", dependencies: [sharedSDK], path: "Plugins/Tuner"),
    .target(name: "PracticeRoomFeature", dependencies: [sharedSDK], path: "Plugins/PracticeRoom"),
    .target(name: "MIDIMonitorFeature", dependencies: [sharedSDK], path: "Plugins/MIDIMonitor"),
    .target(name: "ChordTrainerFeature", dependencies: [sharedSDK], path: "Plugins/ChordTrainer"),
    .target(name: "StudioFeature", dependencies: [sharedSDK], path: "Plugins/Studio"),
    .target(
      name: "MisbehavingFixture", dependencies: [sdk("PatchbayABI")],
      path: "Plugins/Fixtures/Misbehaving"
    ),
    .target(name: "NoEntryFixture", path: "Plugins/Fixtures/NoEntry"),
    .target(
      name: "LV2WorkerFixture", path: "Plugins/Fixtures/LV2Worker", exclude: ["manifest.ttl"]),
    .target(
      name: "HostileFixture", dependencies: [sdk("PatchbayABI")], path: "Plugins/Fixtures/Hostile",
      linkerSettings: [.linkedLibrary("m")]),
    .target(
      name: "NumberedFixture", dependencies: [sharedSDK, "NumberedFixtureSupport"],
      path: "Plugins/Fixtures/Numbered"),
    .target(name: "NumberedFixtureSupport", path: "Plugins/Fixtures/NumberedSupport"),
    .target(
      name: "FlawedFixture", dependencies: [sdk("PatchbayABI")], path: "Plugins/Fixtures/Flawed"),
    .testTarget(
      name: "PatchbayEncodingTests", dependencies: [sdk("PatchbayEncoding"), sdk("PatchbayABI")]),
    // Waits for tests: `eventually`, and the `.highPriority` suite trait.
    .target(name: "PatchbayTestWaiting", path: "Tests/PatchbayTestWaiting"),
    // A second JACK client for tests: a MIDI output port and a recorder.
    .target(
      name: "PatchbayJACKProbe", dependencies: ["CJACK", "PatchbayRealtime"],
      path: "Tests/PatchbayJACKProbe"),
    .testTarget(
      name: "PatchbayTests",
      dependencies: [sdk("Patchbay"), sdk("PatchbayTesting"), "PatchbayTestWaiting"]),
    .testTarget(
      name: "PatchbayPluginTests",
      dependencies: [sdk("PatchbayPlugin"), sdk("PatchbayTesting")] + host
    ),
    .testTarget(name: "PatchbayTOMLTests", dependencies: ["PatchbayTOML"]),
    // The LV2 plugins built here for tests, made into bundles.
    .target(
      name: "PatchbayLV2Fixtures", dependencies: ["PatchbayLV2"],
      path: "Tests/PatchbayLV2Fixtures"),
    .testTarget(
      name: "PatchbayLV2Tests", dependencies: ["PatchbayLV2", "PatchbayLV2Fixtures"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "PatchbayJACKTests",
      dependencies: ["PatchbayJACK", "PatchbayJACKProbe", "PatchbayMIDI", "PatchbayTestWaiting"]),
    .testTarget(name: "PatchbayFlightTests", dependencies: ["PatchbayFlight"]),
    .testTarget(name: "PatchbayValidationTests", dependencies: ["PatchbayValidation"]),
    .testTarget(name: "PatchbayReproTests", dependencies: ["PatchbayRepro"]),
    .testTarget(name: "PatchbayHarnessTests", dependencies: ["PatchbayHarness"]),
    .testTarget(name: "PatchbayFuzzTargetsTests", dependencies: ["PatchbayFuzzTargets"]),
    .testTarget(
      name: "PatchbayHostTests",
      dependencies: [
        sdk("PatchbayTesting"), "PatchbayTestWaiting", "PatchbayJACK", "PatchbayJACKProbe",
        "PatchbayLV2Fixtures", "PatchbayELF",
      ] + host, exclude: ["LV2/Fixtures", "Wasm/Fixtures"]),
    .testTarget(
      name: "CounterFeatureTests",
      dependencies: ["CounterFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "CounterAltFeatureTests",
      dependencies: ["CounterAltFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "PracticeFeatureTests",
      dependencies: ["PracticeFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "MIDIMonitorFeatureTests",
      dependencies: ["MIDIMonitorFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "ChordTrainerFeatureTests",
      dependencies: ["ChordTrainerFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "StudioFeatureTests",
      dependencies: ["StudioFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "PracticeRoomFeatureTests",
      dependencies: ["PracticeRoomFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    .testTarget(
      name: "MetronomeFeatureTests",
      dependencies: ["MetronomeFeature", sharedSDK, sdk("PatchbayTestReporting")]),
    // Runs the built `patchbay` executable.
    // Fixtures/: recordings made by earlier versions, which must still replay.
    .testTarget(
      name: "PatchbayCLITests",
      dependencies: ["PatchbayConfig", "PatchbayPlot", "PatchbayJACKProbe"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "PatchbayTestingTests", dependencies: [sdk("Patchbay"), sdk("PatchbayTesting")]),
    .testTarget(name: "PatchbayRealtimeTests", dependencies: ["PatchbayRealtime"]),
    .testTarget(name: "CPatchbaySampleChecksTests", dependencies: ["CPatchbaySampleChecks"]),
    .testTarget(name: "PatchbayAudioDeviceTests", dependencies: ["PatchbayAudioDevice"]),
    .testTarget(name: "PatchbayPlotTests", dependencies: ["PatchbayPlot"]),
    .testTarget(name: "PatchbayInstanceTreeTests", dependencies: ["PatchbayInstanceTree"]),
    .testTarget(
      name: "PatchbayMIDITests", dependencies: ["PatchbayMIDI", "PatchbayRealtime", "CALSA"]),
  ],
  swiftLanguageModes: [.v6]
)

// Each Swift plugin's target defines `patchbay_plugin_entry` (`#plugin`), and SwiftPM links
// every test target into one test binary on Linux: the entries are never called there (the host
// loads the built .so files), so the linker keeps the first and the tests link the rest.
for target in package.targets where target.type == .test {
  target.linkerSettings =
    (target.linkerSettings ?? []) + [
      .unsafeFlags(["-Xlinker", "--allow-multiple-definition"], .when(platforms: [.linux]))
    ]
}

// `make` builds the project's own code with warnings as errors (it exports
// PATCHBAY_WARNINGS_AS_ERRORS=1), so a new warning fails `make test`. Built any other way — a
// plugin package depending on the SDK by path, a newer toolchain — warnings stay warnings.
if Context.environment["PATCHBAY_WARNINGS_AS_ERRORS"] == "1" {
  for target in package.targets where target.type != .system && target.type != .binary {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
    target.cSettings = (target.cSettings ?? []) + [.treatAllWarnings(as: .error)]
    target.cxxSettings = (target.cxxSettings ?? []) + [.treatAllWarnings(as: .error)]
  }
}
