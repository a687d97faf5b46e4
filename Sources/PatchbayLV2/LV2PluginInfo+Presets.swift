import CLilv
import Foundation

extension LV2PluginInfo {
  /// Its presets, by label, with their URIs. Read when asked (lilv loads each preset's Turtle:
  /// `patchbay lv2 list` does not need them).
  public var presets: [(label: String, uri: String)] {
    let world = LV2World.shared
    return world.lock.withLock { _ in
      let nodes = world.nodes
      var presets: [(label: String, uri: String)] = []
      guard let related = lilv_plugin_get_related(self.plugin, nodes.preset) else { return [] }
      defer { lilv_nodes_free(related) }
      var iterator = lilv_nodes_begin(related)
      while !lilv_nodes_is_end(related, iterator) {
        if let preset = lilv_nodes_get(related, iterator) {
          lilv_world_load_resource(world.world, preset)
          let labels = lilv_world_find_nodes(world.world, preset, nodes.label, nil)
          let label = labels.flatMap { lilv_nodes_get_first($0) }
            .map { String(cString: lilv_node_as_string($0)) }
          lilv_nodes_free(labels)
          let uri = String(cString: lilv_node_as_uri(preset))
          presets.append((label ?? uri, uri))
        }
        iterator = lilv_nodes_next(related, iterator)
      }
      return presets.sorted { $0.label < $1.label }
    }
  }

  /// The control values preset `name` (its label, or its URI) sets, by port symbol. Throws,
  /// listing the plugin's presets, when it has none of that name.
  ///
  /// ```swift
  /// let fat1 = try LV2World.shared.plugin(uri: "http://gareus.org/oss/lv2/fat1")
  /// try fat1.presetValues("Live")      // ["bias": 0.5, "corr": 0.84, "fastmode": 1, …]
  /// ```
  ///
  /// Only the preset's port values: what it keeps through the state extension (files,
  /// blobs) is the plugin's own, and a host that keeps state as control values (Patchbay's
  /// LV2 features) does not restore it.
  public func presetValues(_ name: String) throws(LV2Error) -> [String: Float] {
    guard let preset = self.presets.first(where: { $0.label == name || $0.uri == name }) else {
      let known = self.presets.map { "\"\($0.label)\"" }.joined(separator: ", ")
      throw LV2Error(
        "<\(self.uri)> has no preset '\(name)': "
          + (known.isEmpty ? "it ships none" : "its presets are \(known)"))
    }
    let world = LV2World.shared
    let values = PresetValues()
    let read: Bool = world.lock.withLock { _ in
      let node = lilv_new_uri(world.world, preset.uri)
      defer { lilv_node_free(node) }
      guard let state = lilv_state_new_from_world(world.world, LV2URIDMap.shared.mapFeature, node)
      else { return false }
      defer { lilv_state_free(state) }
      lilv_state_emit_port_values(
        state, presetPortValue, Unmanaged.passUnretained(values).toOpaque())
      return true
    }
    guard read else {
      throw LV2Error("<\(self.uri)>: lilv could not read preset <\(preset.uri)>")
    }
    return values.bySymbol
  }
}

extension LV2PluginInfo {
  /// What preset `name` sets beyond the ports (the state extension's properties), as the
  /// Turtle ``LV2Instance/restoreState(_:)`` takes; nil when it sets none.
  public func presetProperties(_ name: String) throws(LV2Error) -> String? {
    guard let preset = self.presets.first(where: { $0.label == name || $0.uri == name }) else {
      _ = try self.presetValues(name)  // throws, listing the presets
      return nil
    }
    let world = LV2World.shared
    let map = LV2URIDMap.shared
    return world.lock.withLock { _ -> String? in
      let node = lilv_new_uri(world.world, preset.uri)
      defer { lilv_node_free(node) }
      guard let state = lilv_state_new_from_world(world.world, map.mapFeature, node) else {
        return nil
      }
      defer { lilv_state_free(state) }
      guard lilv_state_get_num_properties(state) > 0,
        let text = lilv_state_to_string(
          world.world, map.mapFeature, map.unmapFeature, state, LV2Instance.stateURI, nil)
      else { return nil }
      defer { lilv_free(text) }
      return String(cString: text)
    }
  }
}

/// What `lilv_state_emit_port_values` hands back, gathered.
private final class PresetValues {
  var bySymbol: [String: Float] = [:]
}

/// lilv's `LilvSetPortValueFunc`: one port's value, an atom of a numeric type.
private let presetPortValue:
  @convention(c) (
    UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeRawPointer?, UInt32, UInt32
  ) -> Void = { symbol, context, value, size, type in
    guard let symbol, let context, let value else { return }
    let map = LV2URIDMap.shared
    let number: Float?
    switch type {
    case map.map(LV2URI.atomFloat) where size == 4: number = value.loadUnaligned(as: Float.self)
    case map.map(LV2URI.atomDouble) where size == 8:
      number = Float(value.loadUnaligned(as: Double.self))
    case map.map(LV2URI.atomInt) where size == 4:
      number = Float(value.loadUnaligned(as: Int32.self))
    case map.map(LV2URI.atomLong) where size == 8:
      number = Float(value.loadUnaligned(as: Int64.self))
    case map.map(LV2URI.atomBool) where size == 4:
      number = value.loadUnaligned(as: Int32.self) != 0 ? 1 : 0
    default: number = nil
    }
    guard let number else { return }
    Unmanaged<PresetValues>.fromOpaque(context).takeUnretainedValue()
      .bySymbol[String(cString: symbol)] = number
  }
