import CPatchbayABI

/// The C descriptors of a feature (patchbay/feature.h), built once and kept for the module's
/// life, and the vtable every Swift feature shares (its functions find the feature by its
/// descriptor, the instance by its pointer).
enum Descriptors {
  static func feature<F: Feature>(_ type: F.Type) -> UnsafePointer<pb_feature_desc> {
    let actions = F.actions
    let list = UnsafeMutablePointer<UnsafePointer<pb_action_desc>?>.allocate(
      capacity: max(1, actions.count))
    for (index, action) in actions.enumerated() { list[index] = Self.action(action) }
    let feature = UnsafeMutablePointer<pb_feature_desc>.allocate(capacity: 1)
    feature.initialize(
      to: pb_feature_desc(
        struct_size: UInt32(MemoryLayout<pb_feature_desc>.size), id: F.id.cString,
        name: F.name.cString, summary: F.summary.cString,
        state_schema_version: F.stateSchemaVersion, action_count: UInt32(actions.count),
        actions: UnsafePointer(list), vtable: F.migrates ? migratingVtable : vtable,
        processor: nil))
    return UnsafePointer(feature)
  }

  static func action(_ action: ActionSchema) -> UnsafePointer<pb_action_desc> {
    let fields = UnsafeMutablePointer<UnsafePointer<pb_field_desc>?>.allocate(
      capacity: max(1, action.fields.count))
    for (index, field) in action.fields.enumerated() {
      let described = UnsafeMutablePointer<pb_field_desc>.allocate(capacity: 1)
      described.initialize(
        to: pb_field_desc(
          struct_size: UInt32(MemoryLayout<pb_field_desc>.size), name: field.name.cString,
          type: field.type.cString))
      fields[index] = UnsafePointer(described)
    }
    let described = UnsafeMutablePointer<pb_action_desc>.allocate(capacity: 1)
    described.initialize(
      to: pb_action_desc(
        struct_size: UInt32(MemoryLayout<pb_action_desc>.size), name: action.name.cString,
        summary: action.summary.utf8CodeUnitCount == 0 ? nil : action.summary.cString,
        field_count: UInt32(action.fields.count), fields: UnsafePointer(fields),
        sent_by: action.sentBy?.name.cString))
    return UnsafePointer(described)
  }

  nonisolated(unsafe) static let vtable: UnsafePointer<pb_feature_vtable> = {
    let table = UnsafeMutablePointer<pb_feature_vtable>.allocate(capacity: 1)
    table.initialize(to: pb_feature_vtable())
    table.pointee.struct_size = UInt32(MemoryLayout<pb_feature_vtable>.size)
    table.pointee.create = { descriptor, host, state, count in
      guard let host, let feature = Plugin.feature(descriptor),
        let instance = feature.create(host, state, count)
      else { return nil }
      return Unmanaged.passRetained(instance).toOpaque()
    }
    table.pointee.destroy = { instance in
      guard let instance else { return }
      Unmanaged<Instance>.fromOpaque(instance).release()
    }
    table.pointee.reduce = { instance, bytes, count in
      Unmanaged<Instance>.fromOpaque(instance!).takeUnretainedValue().reduce(bytes, count)
    }
    table.pointee.snapshot = { instance, out in
      Unmanaged<Instance>.fromOpaque(instance!).takeUnretainedValue().snapshot(out!)
    }
    table.pointee.render = { instance, out in
      Unmanaged<Instance>.fromOpaque(instance!).takeUnretainedValue().render(out!)
    }
    table.pointee.parse_action = { descriptor, host, text, length, out in
      guard let feature = Plugin.feature(descriptor) else { return PB_ERR_INVALID }
      let typed =
        text.map {
          $0.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: min(length, 64)), as: UTF8.self)
          }
        } ?? ""
      var error: UnsafePointer<CChar>?
      var offset = 0
      var failed = false
      let bytes = Bytes.written { writer in
        failed = pb_parse_action_text(text, length, writer.writer, &error, &offset) != 0
      }
      if failed {
        let why = error.map { String(cString: $0) } ?? "out of memory"
        Host.error(host, feature.id, "cannot parse action '\(typed)': column \(offset + 1): \(why)")
        return PB_ERR_DECODE
      }
      if let why = bytes.withUnsafeBufferPointer({ feature.check($0.baseAddress, $0.count) }) {
        Host.error(host, feature.id, "cannot parse action '\(typed)': \(why)")
        return PB_ERR_DECODE
      }
      return bytes.withUnsafeBufferPointer {
        out!.pointee.write(out!.pointee.context, $0.baseAddress, $0.count) == $0.count
          ? PB_OK : PB_ERR_FAILED
      }
    }
    table.pointee.format_action = { descriptor, host, bytes, length, out in
      guard let feature = Plugin.feature(descriptor) else { return PB_ERR_INVALID }
      if let why = feature.check(bytes, length) {
        Host.error(host, feature.id, why)
        return PB_ERR_DECODE
      }
      return pb_format_value_text(bytes, length, out) == 0 ? PB_OK : PB_ERR_DECODE
    }
    table.pointee.cancel_effects = { _ in }
    return UnsafePointer(table)
  }()

  /// ``vtable`` with `migrate`: a feature's migrates when it has the entry.
  nonisolated(unsafe) static let migratingVtable: UnsafePointer<pb_feature_vtable> = {
    let table = UnsafeMutablePointer<pb_feature_vtable>.allocate(capacity: 1)
    table.initialize(to: vtable.pointee)
    table.pointee.migrate = { descriptor, host, schema, state, length, out in
      guard let feature = Plugin.feature(descriptor) else { return PB_ERR_INVALID }
      guard let bytes = feature.migrate(host, schema, state, length) else {
        return PB_ERR_UNSUPPORTED
      }
      return bytes.withUnsafeBufferPointer {
        out!.pointee.write(out!.pointee.context, $0.baseAddress, $0.count) == $0.count
          ? PB_OK : PB_ERR_FAILED
      }
    }
    return UnsafePointer(table)
  }()
}
