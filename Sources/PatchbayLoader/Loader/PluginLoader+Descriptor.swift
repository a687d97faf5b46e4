import Foundation
import PatchbayABI

/// A plugin's descriptor checked against this host's ABI, field by field, before any of its
/// code runs: the magic, the major version, each struct's size, each feature's entries.
extension PluginLoader {
  /// What runs a feature whose descriptor passed: given the feature's index in the plugin,
  /// its descriptor, a copy of its vtable, its processor and the label crash reports use.
  package typealias FeatureCodeMaker = (
    _ index: Int, _ descriptor: UnsafePointer<pb_feature_desc>, _ vtable: pb_feature_vtable,
    _ processor: pb_processor_desc?, _ crashLabel: String
  ) -> any FeatureCode

  /// Checks a descriptor against this host's ABI and reads it. `code` makes each feature's
  /// code: by default, calls into this process (``InProcessFeature``); a plugin in another
  /// form (a WebAssembly module, whose descriptor the host copied out of it) gives its own.
  package static func validate(
    _ raw: UnsafeRawPointer, file: String, generation: Int, code: FeatureCodeMaker? = nil
  ) throws(PluginLoadError) -> LoadedPlugin {
    let magic = raw.loadUnaligned(as: UInt32.self)
    guard magic == PATCHBAY_MAGIC else {
      throw PluginLoadError(
        file: file,
        "wrong magic 0x\(String(magic, radix: 16)) in the plugin descriptor (expected "
          + "0x\(String(PATCHBAY_MAGIC, radix: 16)) \"PBAY\"): patchbay_plugin_entry must return "
          + "a pb_plugin_desc. Rebuild against patchbay.h."
      )
    }
    let major = UInt32(raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
    let minor = raw.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
    guard major == PATCHBAY_ABI_MAJOR else {
      throw PluginLoadError(
        file: file,
        "built for plugin ABI \(major).\(minor), but this host speaks ABI "
          + "\(PATCHBAY_ABI_MAJOR).\(PATCHBAY_ABI_MINOR). Rebuild the plugin against this "
          + "host's patchbay.h."
      )
    }
    // A 2.0 descriptor ends before the functions 2.1 appended: it still loads.
    let size = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
    try requireSize(
      size, of: pb_plugin_desc.self, named: "pb_plugin_desc", file: file,
      minimum: MemoryLayout<pb_plugin_desc>.offset(of: \.function_count))
    let descriptor = raw.assumingMemoryBound(to: pb_plugin_desc.self)
    guard descriptor.pointee.id != nil, !string(descriptor.pointee.id).isEmpty else {
      throw PluginLoadError(file: file, "the plugin descriptor has no id. Give it one.")
    }
    try requireCount(
      descriptor.pointee.feature_count, limit: Limits.features,
      array: descriptor.pointee.features.map(UnsafeRawPointer.init), of: "features", file: file)
    let plugin = try LoadedPlugin(path: file, generation: generation, descriptor: descriptor) {
      plugin throws(PluginLoadError) in
      var features: [LoadedFeature] = []
      for index in 0..<Int(descriptor.pointee.feature_count) {
        guard let pointer = descriptor.pointee.features?[index] else {
          throw PluginLoadError(file: file, "feature \(index) of the descriptor is NULL.")
        }
        let feature = try validateFeature(
          pointer, index: index, plugin: plugin, file: file, code: code)
        if features.contains(where: { $0.id == feature.id }) {
          throw PluginLoadError(
            file: file,
            "declares feature id '\(feature.id)' twice. Give each feature its own id."
          )
        }
        features.append(feature)
      }
      return features
    }
    plugin.functions = try validateFunctions(descriptor, plugin: plugin, file: file)
    return plugin
  }

  static func validateFeature(
    _ descriptor: UnsafePointer<pb_feature_desc>, index: Int, plugin: LoadedPlugin, file: String,
    code: FeatureCodeMaker?
  ) throws(PluginLoadError) -> LoadedFeature {
    try requireSize(
      descriptor.pointee.struct_size, of: pb_feature_desc.self, named: "pb_feature_desc",
      file: file, in: "feature \(index)"
    )
    let id = string(descriptor.pointee.id)
    guard !id.isEmpty else {
      throw PluginLoadError(file: file, "feature \(index) has no id. Give it a reverse-DNS id.")
    }
    guard let vtablePointer = descriptor.pointee.vtable else {
      throw PluginLoadError(file: file, "feature '\(id)' has no vtable.")
    }
    let size = Int(vtablePointer.pointee.struct_size)
    try requireSize(
      UInt32(size), of: pb_feature_vtable.self, named: "pb_feature_vtable",
      file: file, in: "feature '\(id)'", minimum: Self.vtableSize23)
    // No field past struct_size is read: a 2.3 vtable has no cancel_effects_keyed.
    var vtable = pb_feature_vtable()
    withUnsafeMutableBytes(of: &vtable) { copy in
      copy.copyMemory(
        from: UnsafeRawBufferPointer(start: vtablePointer, count: min(size, copy.count)))
    }
    let functions: [(String, Bool)] = [
      ("create", vtable.create != nil), ("destroy", vtable.destroy != nil),
      ("reduce", vtable.reduce != nil), ("snapshot", vtable.snapshot != nil),
      ("render", vtable.render != nil), ("parse_action", vtable.parse_action != nil),
      ("format_action", vtable.format_action != nil),
      ("cancel_effects", vtable.cancel_effects != nil),
    ]
    if let missing = functions.first(where: { !$0.1 }) {
      throw PluginLoadError(
        file: file,
        "feature '\(id)': the vtable's required function '\(missing.0)' is NULL. Implement it."
      )
    }
    let actions = try validateActions(descriptor, feature: id, file: file)
    let processor = try validateProcessor(descriptor.pointee.processor, feature: id, file: file)
    let label = "\(id) (\(plugin.path))"
    return LoadedFeature(
      plugin: plugin, descriptor: descriptor, actions: actions,
      code: code?(index, descriptor, vtable, processor, label)
        ?? InProcessFeature(
          descriptor: descriptor, vtable: vtable, processor: processor, crashLabel: label))
  }
}

extension PluginLoader {
  /// The size of an ABI 2.0–2.3 vtable: everything before `cancel_effects_keyed` (2.4).
  static let vtableSize23 = MemoryLayout<pb_feature_vtable>.offset(
    of: \pb_feature_vtable.cancel_effects_keyed)!
}

/// Refuses a struct whose `struct_size` is smaller than this ABI version's layout of it.
func requireSize<T>(
  _ size: UInt32, of _: T.Type, named name: String, file: String, in context: String? = nil,
  minimum: Int? = nil
) throws(PluginLoadError) {
  let required = minimum ?? MemoryLayout<T>.size
  guard Int(size) < required else { return }
  throw PluginLoadError(
    file: file,
    (context.map { "\($0): " } ?? "")
      + "\(name).struct_size is \(size), smaller than the \(required) bytes ABI "
      + "\(PATCHBAY_ABI_MAJOR).0 requires. Set it to sizeof(\(name))."
  )
}
