import PatchbayABI

/// The most a descriptor may declare: counts past these are a broken or hostile plugin, never a
/// real one, and are refused before the loader walks their arrays.
///
/// ```swift
/// PluginLoader.Limits.features           // 64 features in one plugin
/// PluginLoader.Limits.actions            // 1,024 actions in one feature
/// PluginLoader.Limits.fields             // 64 fields in one action
/// PluginLoader.Limits.functions          // 1,024 exported functions
/// ```
extension PluginLoader {
  public enum Limits {
    public static let features = 64
    public static let actions = 1024
    public static let fields = 64
    public static let functions = 1024
  }

  /// Refuses a count past `limit`, or a NULL array with a count.
  static func requireCount(
    _ count: UInt32, limit: Int, array: UnsafeRawPointer?, of what: String, file: String
  ) throws(PluginLoadError) {
    guard Int(count) <= limit else {
      throw PluginLoadError(
        file: file,
        "declares \(count) \(what), more than the \(limit) a plugin may (patchbay.h). Its "
          + "descriptor is broken: check the count.")
    }
    guard count == 0 || array != nil else {
      throw PluginLoadError(
        file: file, "declares \(count) \(what) but their array is NULL. Point it at them.")
    }
  }

  /// Reads and checks a feature's actions: each non-NULL, as large as the ABI's layout, named,
  /// with named and typed fields.
  static func validateActions(
    _ descriptor: UnsafePointer<pb_feature_desc>, feature id: String, file: String
  ) throws(PluginLoadError) -> [ActionInfo] {
    let count = descriptor.pointee.action_count
    try requireCount(
      count, limit: Limits.actions, array: descriptor.pointee.actions.map(UnsafeRawPointer.init),
      of: "actions in feature '\(id)'", file: file)
    var actions: [ActionInfo] = []
    for index in 0..<Int(count) {
      guard let action = descriptor.pointee.actions?[index] else {
        throw PluginLoadError(file: file, "feature '\(id)': action \(index) is NULL.")
      }
      // 2.0's size: `sent_by` (2.3) is read only where struct_size covers it.
      let sentByOffset = MemoryLayout<pb_action_desc>.offset(of: \pb_action_desc.sent_by)!
      try requireSize(
        action.pointee.struct_size, of: pb_action_desc.self, named: "pb_action_desc", file: file,
        in: "feature '\(id)', action \(index)", minimum: sentByOffset)
      guard action.pointee.name != nil, !string(action.pointee.name).isEmpty else {
        throw PluginLoadError(
          file: file, "feature '\(id)': action \(index) has no name. Give it one.")
      }
      let name = string(action.pointee.name)
      let fieldCount = action.pointee.field_count
      try requireCount(
        fieldCount, limit: Limits.fields, array: action.pointee.fields.map(UnsafeRawPointer.init),
        of: "fields in action '\(name)' of feature '\(id)'", file: file)
      var fields: [ActionInfo.Field] = []
      for fieldIndex in 0..<Int(fieldCount) {
        guard let field = action.pointee.fields?[fieldIndex] else {
          throw PluginLoadError(
            file: file, "feature '\(id)', action '\(name)': field \(fieldIndex) is NULL.")
        }
        try requireSize(
          field.pointee.struct_size, of: pb_field_desc.self, named: "pb_field_desc", file: file,
          in: "feature '\(id)', action '\(name)', field \(fieldIndex)")
        guard field.pointee.name != nil, field.pointee.type != nil else {
          throw PluginLoadError(
            file: file,
            "feature '\(id)', action '\(name)': field \(fieldIndex) has no name or no type.")
        }
        fields.append(
          ActionInfo.Field(name: string(field.pointee.name), type: string(field.pointee.type)))
      }
      let sentBy =
        Int(action.pointee.struct_size) >= MemoryLayout<pb_action_desc>.size
        ? action.pointee.sent_by.map { String(cString: $0) } : nil
      actions.append(
        ActionInfo(
          name: name, summary: string(action.pointee.summary), fields: fields, sentBy: sentBy))
    }
    return actions
  }
}
