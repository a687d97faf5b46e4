import Foundation
import PatchbayABI

/// A plugin library the host loaded and validated: what it declares, and the C descriptors
/// behind it (valid for the life of the process, since plugins are never unloaded).
///
/// `@unchecked Sendable`: the loader sets `features`, `functions` and `fileIdentity` while it
/// makes the plugin, before anyone else can see it; nothing changes after.
public final class LoadedPlugin: @unchecked Sendable {
  /// The file the plugin was loaded from (not the generation copy).
  public let path: String
  /// Which load of this file in this process: 1, 2, ….
  public let generation: Int
  public let id: String
  public let name: String
  public let version: String
  public let abiMajor: Int
  public let abiMinor: Int
  public private(set) var features: [LoadedFeature] = []
  /// The plain C functions it exports (ABI 2.1; none from a 2.0 plugin).
  public internal(set) var functions: [LoadedFunction] = []
  /// The functions it exports in the process it runs isolated in, which nothing in this one
  /// can call; empty for a plugin loaded here.
  public package(set) var isolatedFunctions: [String] = []
  /// The file as it was when loaded: a swap to the same, unchanged file reuses this load.
  package internal(set) var fileIdentity: FileIdentity?
  /// The host services a plugin that is confined to its imports asks for (a WebAssembly
  /// plugin's: "midi", "navigation", …, which `[sandbox]` must grant); nil for a library.
  public package(set) var services: [String]?

  init(
    path: String, generation: Int, descriptor: UnsafePointer<pb_plugin_desc>,
    features: (LoadedPlugin) throws(PluginLoadError) -> [LoadedFeature]
  ) throws(PluginLoadError) {
    self.path = path
    self.generation = generation
    self.id = string(descriptor.pointee.id)
    self.name = string(descriptor.pointee.name)
    self.version = string(descriptor.pointee.version)
    self.abiMajor = Int(descriptor.pointee.abi_major)
    self.abiMinor = Int(descriptor.pointee.abi_minor)
    self.features = try features(self)
  }

  /// A plugin described by values, whose features' code is not a library loaded here (another
  /// ``FeatureCode`` conformance: code in another process, or in a test).
  package init(
    path: String, generation: Int = 1, id: String, name: String, version: String,
    abi: (major: Int, minor: Int) = (Int(PATCHBAY_ABI_MAJOR), Int(PATCHBAY_ABI_MINOR)),
    features: (LoadedPlugin) -> [LoadedFeature]
  ) {
    self.path = path
    self.generation = generation
    self.id = id
    self.name = name
    self.version = version
    self.abiMajor = abi.major
    self.abiMinor = abi.minor
    self.features = features(self)
  }

  /// The feature with `id`, if this plugin declares it.
  public func feature(_ id: String) -> LoadedFeature? {
    self.features.first { $0.id == id }
  }
}

/// Which file, and which version of it: equal identities mean the same bytes (short of a
/// writer that restores the modification time).
package struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let modified: Int64
  let modifiedNanoseconds: Int64

  /// The identity of the file at `path` now; nil when it cannot be read.
  public init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.device = UInt64(info.st_dev)
    self.inode = UInt64(info.st_ino)
    self.size = Int64(info.st_size)
    self.modified = Int64(info.st_mtim.tv_sec)
    self.modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
  }
}

/// A feature a loaded plugin declares: what it says of itself, and its code (``code``), which
/// the host calls through the ``FeatureCode`` protocol.
///
/// `@unchecked Sendable`: every property is immutable; `plugin` is unowned because the plugin
/// owns its features, and plugins live as long as the process.
public final class LoadedFeature: @unchecked Sendable {
  public let id: String
  public let name: String
  public let summary: String
  public let schemaVersion: UInt32
  public let actions: [ActionInfo]
  /// The plugin that declares it.
  public unowned let plugin: LoadedPlugin
  /// Its code: in this process (``InProcessFeature``), or behind another conformance.
  package let code: any FeatureCode

  /// Whether the feature can migrate older state.
  public var migrates: Bool { self.code.migrates }
  /// Whether the feature makes sound: it has a processor the audio thread calls.
  public var hasProcessor: Bool { self.code.processor != nil }

  /// What its processor declares, for `inspect`; nil without one.
  public var processorInfo: (parameterBytes: Int, maxEvents: Int)? {
    self.code.processor.map { (Int($0.parameter_size), Int($0.max_output_events)) }
  }

  /// A feature of `plugin` whose code is `code`.
  package init(
    plugin: LoadedPlugin, id: String, name: String, summary: String = "",
    schemaVersion: UInt32 = 1, actions: [ActionInfo] = [], code: any FeatureCode
  ) {
    self.plugin = plugin
    self.id = id
    self.name = name
    self.summary = summary
    self.schemaVersion = schemaVersion
    self.actions = actions
    self.code = code
  }

  init(
    plugin: LoadedPlugin, descriptor: UnsafePointer<pb_feature_desc>, actions: [ActionInfo],
    code: any FeatureCode
  ) {
    self.plugin = plugin
    self.id = string(descriptor.pointee.id)
    self.name = string(descriptor.pointee.name)
    self.summary = string(descriptor.pointee.summary)
    self.schemaVersion = descriptor.pointee.state_schema_version
    self.actions = actions
    self.code = code
  }
}

/// An action a feature declares: its name and typed fields.
public struct ActionInfo: Equatable, Sendable {
  public struct Field: Equatable, Sendable {
    public let name: String
    public let type: String

    package init(name: String, type: String) {
      self.name = name
      self.type = type
    }
  }

  public let name: String
  public let summary: String
  public let fields: [Field]
  /// Who sends it, when people should not ("host", "processor", "effect"); nil otherwise.
  public let sentBy: String?

  package init(name: String, summary: String, fields: [Field], sentBy: String? = nil) {
    self.name = name
    self.summary = summary
    self.fields = fields
    self.sentBy = sentBy
  }

  /// `setStep(by: int)`; a field without a label (`_0`, `_1`: written by position, as
  /// `setBeatsPerBar(4)`) reads `_`: `setBeatsPerBar(_: int)`.
  public var signature: String {
    guard !self.fields.isEmpty else { return self.name }
    let fields = self.fields.enumerated().map { index, field in
      "\(field.name == "_\(index)" ? "_" : field.name): \(field.type)"
    }
    return "\(self.name)(\(fields.joined(separator: ", ")))"
  }
}

/// A C string the plugin owns, as a Swift string; empty for NULL.
func string(_ pointer: UnsafePointer<CChar>?) -> String {
  pointer.map { String(cString: $0) } ?? ""
}
