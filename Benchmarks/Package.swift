// swift-tools-version: 6.2
import PackageDescription

// Benchmarks for Patchbay, kept out of the root package so that `swift build` there never
// builds the benchmark tooling. Run with `make bench` (or `swift package benchmark` here).
// SwiftPM names a path dependency after its folder, which is whatever the clone is called.
let root = String(
  #filePath.split(separator: "/").dropLast(2).last ?? "Patchbay"
).lowercased()

let package = Package(
  name: "PatchbayBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: ".."),
    .package(path: "../Sources/PatchbaySDK"),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1",
      traits: ["MallocInterposer"]
    ),
    // The interpreter the root runs WebAssembly plugins in, for the wasm processor benchmark.
    .package(url: "https://github.com/swiftwasm/WasmKit", exact: "0.4.2"),
  ],
  targets: [
    // Where the root's build is, workload sizes, and the smoke run `make test` makes.
    .target(
      name: "BenchmarkSupport",
      dependencies: ["References", .product(name: "Benchmark", package: "benchmark")],
      path: "Support"
    ),
    // jack_ringbuffer, boost::lockfree::spsc_queue and ALSA's MIDI encoder, for comparison
    // (apt-get install libjack-jackd2-dev libboost-dev libasound2-dev; `make deps` does).
    .target(
      name: "References",
      path: "References",
      linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("asound")]
    ),
    // A JACK client with nothing of Patchbay in it, run beside the studio on a server of its
    // own: the JACK studio benchmark's reference (Benchmarks/BareJACKClient/main.c).
    .executableTarget(
      name: "BareJACKClient",
      path: "BareJACKClient",
      linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("m")]
    ),
    .executableTarget(
      name: "AudioBenchmarks",
      dependencies: [
        "References", "BenchmarkSupport",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "PatchbayAudioDevice", package: root),
        .product(name: "PatchbayLV2", package: root),
        .product(name: "PatchbayMIDI", package: root),
      ],
      path: "Benchmarks/AudioBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "CoreBenchmarks",
      dependencies: [
        "BenchmarkSupport", "References",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Patchbay", package: "PatchbaySDK"),
        .product(name: "PatchbayPlugin", package: "PatchbaySDK"),
        .product(name: "PatchbayHost", package: root),
        .product(name: "PatchbayEncoding", package: "PatchbaySDK"),
      ],
      path: "Benchmarks/CoreBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "SoundBenchmarks",
      dependencies: [
        "References", "BenchmarkSupport",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "PatchbayHost", package: root),
        .product(name: "PatchbayAudioDevice", package: root),
        .product(name: "PatchbayJACK", package: root),
        .product(name: "PatchbayLV2", package: root),
        .product(name: "PatchbayMIDI", package: root),
        .product(name: "PatchbayEncoding", package: "PatchbaySDK"),
        .product(name: "WasmKit", package: "WasmKit"),
      ],
      path: "Benchmarks/SoundBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // How each cost grows with the app: rows, effects, … (docs/BENCHMARKS.md, "Growth").
    .executableTarget(
      name: "GrowthBenchmarks",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Patchbay", package: "PatchbaySDK"),
        .product(name: "PatchbayHost", package: root),
        .product(name: "PatchbayAudioDevice", package: root),
      ],
      path: "Benchmarks/GrowthBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // The growth curves of a run drawn, and their table written into docs/BENCHMARKS.md.
    .executableTarget(
      name: "GrowthReport",
      dependencies: [.product(name: "PatchbayHost", package: root)],
      path: "GrowthReport"
    ),
  ],
  swiftLanguageModes: [.v6],
  cxxLanguageStandard: .cxx17
)

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
