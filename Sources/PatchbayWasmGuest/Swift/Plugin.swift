import CPatchbayABI

/// A feature of the plugin, type-erased: its descriptor, and how to make, check and format its
/// instances' bytes. `#plugin` makes one per feature type.
public struct PluginFeature {
  let descriptor: UnsafePointer<pb_feature_desc>
  let create: (UnsafePointer<pb_host>, UnsafePointer<UInt8>?, Int) -> Instance?
  /// nil when `bytes` is an action the feature takes, else why not.
  let check: (UnsafePointer<UInt8>?, Int) -> String?
  /// A state of another schema, in this build's encoding; nil after saying why.
  let migrate: (UnsafePointer<pb_host>?, UInt32, UnsafePointer<UInt8>?, Int) -> [UInt8]?
  let id: StaticString

  public init<F: Feature>(_ type: F.Type) {
    descriptor = Descriptors.feature(type)
    id = F.id
    create = { host, bytes, count in
      guard let bytes else { return Running<F>(state: F.initialState, host: host) }
      var input = WireReader(bytes, count)
      guard let state = F.read(F.initialState, from: &input), input.atEnd else {
        Host.error(host, F.id, "cannot restore the state: \(input.error)")
        return nil
      }
      return Running<F>(state: state, host: host)
    }
    check = { bytes, count in Self.refusal(F.self, bytes, count) }
    migrate = { host, schema, bytes, count in
      var input = WireReader(bytes, count)
      guard let state = F.migrate(from: schema, &input) else {
        Host.error(
          host, F.id,
          "cannot migrate a state of schema \(schema) to \(F.stateSchemaVersion): its "
            + "migrate(from:_:) read none from it (\(input.error))")
        return nil
      }
      return Bytes.written { F.write(state, to: &$0) }
    }
  }

  /// Why `bytes` is not an action of `F`, in one line that says what to send; nil when it is
  /// one: "unknown action 'jump'. Actions: increment, …", or "cannot decode 'setStep': its
  /// fields are (by: int)".
  static func refusal<F: Feature>(_ type: F.Type, _ bytes: UnsafePointer<UInt8>?, _ count: Int)
    -> String?
  {
    var input = WireReader(bytes, count)
    if F.read(action: &input) != nil, input.atEnd { return nil }
    var again = WireReader(bytes, count)
    guard let (name, _) = again.case() else {
      return "cannot decode the action: \(again.error). Send one of its actions."
    }
    guard let schema = F.actions.first(where: { name == $0.name }) else {
      let names = F.actions.map { Self.text($0.name) }
      return "unknown action '\(name.text)'. Actions: \(names.joined(separator: ", "))."
    }
    let fields = schema.fields.map { "\(Self.text($0.name)): \(Self.text($0.type))" }
    return "cannot decode '\(name.text)': its fields are (\(fields.joined(separator: ", ")))."
  }

  static func text(_ literal: StaticString) -> String {
    String(
      decoding: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount),
      as: UTF8.self)
  }
}

/// The plugin: its descriptor, built once from what `#plugin` names.
public enum Plugin {
  nonisolated(unsafe) static var features: [PluginFeature] = []
  nonisolated(unsafe) static var descriptor: UnsafeMutablePointer<pb_plugin_desc>?

  /// `patchbay_plugin_entry`'s answer (`#plugin` writes the call).
  public static func describe(
    id: StaticString, name: StaticString, version: StaticString,
    features: @autoclosure () -> [PluginFeature]
  ) -> UnsafeRawPointer {
    if let descriptor { return UnsafeRawPointer(descriptor) }
    Plugin.features = features()
    let list = UnsafeMutablePointer<UnsafePointer<pb_feature_desc>?>.allocate(
      capacity: Plugin.features.count)
    for (index, feature) in Plugin.features.enumerated() { list[index] = feature.descriptor }
    let plugin = UnsafeMutablePointer<pb_plugin_desc>.allocate(capacity: 1)
    plugin.initialize(
      to: pb_plugin_desc(
        magic: PATCHBAY_MAGIC, abi_major: UInt16(PATCHBAY_ABI_MAJOR),
        abi_minor: UInt16(PATCHBAY_ABI_MINOR),
        struct_size: UInt32(MemoryLayout<pb_plugin_desc>.size),
        id: id.cString, name: name.cString, version: version.cString,
        feature_count: UInt32(Plugin.features.count), features: UnsafePointer(list),
        function_count: 0, functions: nil))
    descriptor = plugin
    return UnsafeRawPointer(plugin)
  }

  static func feature(_ descriptor: UnsafePointer<pb_feature_desc>?) -> PluginFeature? {
    features.first { $0.descriptor == descriptor }
  }
}
