import Foundation
import PatchbayABI
import PatchbayHost
import PatchbayIsolation
import PatchbayLV2Feature
import PatchbayLoader
import PatchbayWasm
import Synchronization

/// What a test runs against: the plugin's file, the seed, the strictness, and the breadcrumbs
/// it leaves so that the runner can name the call a crash or hang happened in.
///
/// Each test loads the plugin itself (``load()``), in the child process that runs it.
package final class ValidationContext: @unchecked Sendable {
  package let pluginPath: String
  package let seed: UInt64
  package let strictness: Int
  /// Which of a test's generated actions to send, by index, instead of all of them: the
  /// runner passes these while it shrinks a failing sequence.
  package let keep: [Int]?
  /// Plugins whose functions the plugin's imports resolve against (`--provider`), by path.
  package let providers: [String]
  /// Whether the plugin is loaded isolated, in a process of its own (`patchbay-isolated`), as
  /// `[plugins] isolate` loads it.
  package let isolated: Bool
  /// How long one call may take before it counts as a hang (`--call-seconds`): the watchdog
  /// in this process and, isolated, the host's wait on the plugin's process.
  package let callSeconds: Int
  private let crumbs: (String) -> Void
  /// The errors the host logged about the instances this context made (a plugin's misuse of
  /// a host function, such as a [main-thread] one called from another thread).
  private let errors = Mutex<[String]>([])

  package init(
    pluginPath: String, seed: UInt64, strictness: Int, keep: [Int]? = nil,
    providers: [String] = [], isolated: Bool = false, callSeconds: Int = 5,
    breadcrumbs: @escaping (String) -> Void = { _ in }
  ) {
    self.callSeconds = callSeconds
    self.pluginPath = pluginPath
    self.seed = seed
    self.strictness = strictness
    self.keep = keep
    self.providers = providers
    self.isolated = isolated
    self.crumbs = breadcrumbs
  }

  /// Loads the plugin (a new generation each call: the loader copies the file first).
  package func load() throws -> LoadedPlugin {
    self.step("load \(self.pluginPath)" + (self.isolated ? " (isolated)" : ""))
    var loader = PluginLoader()
    LV2FeaturePlugin.install(into: &loader)  // `patchbay validate lv2:URI`
    WasmPlugin.install(into: &loader)  // `patchbay validate Echo.wasm`
    if self.isolated {
      loader.isolated = ["all"]
      var options = IsolationOptions()
      options.limits.callSeconds = self.callSeconds
      loader.isolator = ProcessIsolator(options: options)
    }
    return try loader.load(self.pluginPath)
  }

  /// The plugin, loaded, and those of its features that have a processor; nil when none has.
  package func processorFeatures() throws -> (LoadedPlugin, [LoadedFeature])? {
    let plugin = try self.load()
    let audio = plugin.features.filter(\.hasProcessor)
    return audio.isEmpty ? nil : (plugin, audio)
  }

  /// Says what the test is about to call, for the runner: the last step before a crash or a
  /// hang is the one reported. `action` is the index of the action being sent, if any.
  package func step(_ text: String, action: Int? = nil) {
    self.crumbs(action.map { "action \($0): \(text)" } ?? text)
  }

  /// A crash the plugin's code survived in this process (a WebAssembly trap: the instance goes
  /// on) ends the child as a native plugin's crash does, status 3 with `report` on standard
  /// error: the runner names the step it came in, and shrinks a fuzzing run to it.
  package func crashed(_ report: String) -> Never {
    FileHandle.standardError.write(Data("\(report)\n".utf8))
    exit(3)
  }

  /// `count` at strictness 5, scaled linearly with the strictness (at least 1).
  package func scaled(_ count: Int) -> Int { max(1, count * self.strictness / 5) }

  /// A generator seeded with the context's seed and `salt` (one stream per use).
  package func random(_ salt: UInt64 = 0) -> SeededRandom { SeededRandom(seed: self.seed &+ salt) }

  /// A new instance of `feature`, named for the breadcrumbs.
  package func instance(
    of feature: LoadedFeature, restoring state: [UInt8]? = nil
  ) throws(FeatureCallError) -> FeatureHandle {
    self.step("create \(feature.id)" + (state.map { " from \($0.count) state bytes" } ?? ""))
    return try FeatureHandle(feature: feature, restoring: state) { [weak self] level, text in
      if level == PB_LOG_ERROR { self?.errors.withLock { $0.append(text) } }
    }
  }

  /// The errors the host logged about this context's instances since the last call.
  package func takeHostErrors() -> [String] {
    self.errors.withLock { errors in
      defer { errors = [] }
      return errors
    }
  }
}

/// SplitMix64: small, fast and the same on every machine, so a seed reproduces a run.
package struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { self.state = seed }

  package mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
