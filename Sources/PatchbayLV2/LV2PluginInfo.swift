import CLilv
import Foundation

/// What an installed LV2 plugin is: its URI, name, ports, the features it requires and the
/// presets it ships, read from its Turtle by lilv.
///
/// ```swift
/// let eq = try LV2World.shared.plugin(uri: "http://gareus.org/oss/lv2/fil4#stereo")
/// eq.name                       // "x42-eq - Parametric Equalizer Stereo"
/// eq.refusal(allowingNonRealtime: false)   // nil: Patchbay can host it
/// ```
public struct LV2PluginInfo: @unchecked Sendable, Equatable {
  public let uri: String
  public let name: String
  /// Its class, as people say it ("Equaliser Plugin", "Instrument Plugin").
  public let classLabel: String
  /// Whether its class is `lv2:InstrumentPlugin`: it makes sound from MIDI (audio inputs it may
  /// have are not the mix it works on).
  public let isInstrument: Bool
  public let ports: [LV2Port]
  public let requiredFeatures: [String]
  /// Whether it says it can run on a realtime thread (`lv2:hardRTCapable`).
  public let isHardRealtimeCapable: Bool
  /// Whether it saves and restores state beyond its control ports (the state extension).
  public let hasStateInterface: Bool
  let plugin: OpaquePointer

  /// The LV2 features the host gives every instance.
  public static let hostFeatures: Set<String> = [
    LV2URI.uridMap, LV2URI.uridUnmap, LV2URI.options, LV2URI.boundedBlockLength,
    LV2URI.workerSchedule,
  ]

  /// Why Patchbay cannot host it, in one line; nil when it can. A plugin that does not say it
  /// is hard-realtime capable is refused unless `allowingNonRealtime`.
  public func refusal(allowingNonRealtime: Bool) -> String? {
    let missing = self.requiredFeatures.filter { !Self.hostFeatures.contains($0) }
    if let first = missing.first {
      return "<\(self.uri)> requires the LV2 feature <\(first)>, which Patchbay does not "
        + "provide (it provides urid:map, urid:unmap, options, buf-size:boundedBlockLength and "
        + "worker:schedule)"
    }
    if !self.isHardRealtimeCapable && !allowingNonRealtime {
      return "<\(self.uri)> does not say it is hard-realtime capable (lv2:hardRTCapable), so "
        + "its run may block the audio thread: Patchbay runs it only where that is allowed"
    }
    return nil
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.uri == rhs.uri }

  /// Reads `plugin`. [holds the world's lock]
  init(_ plugin: OpaquePointer, in world: LV2World) {
    let nodes = world.nodes
    self.plugin = plugin
    self.uri = String(cString: lilv_node_as_uri(lilv_plugin_get_uri(plugin)))
    self.name = Self.take(lilv_plugin_get_name(plugin)) ?? self.uri
    let pluginClass = lilv_plugin_get_class(plugin)
    self.classLabel =
      pluginClass.flatMap { lilv_plugin_class_get_label($0) }
      .map { String(cString: lilv_node_as_string($0)) } ?? "Plugin"
    self.isInstrument =
      pluginClass.flatMap { lilv_plugin_class_get_uri($0) }
      .map { String(cString: lilv_node_as_uri($0)) } == LV2URI.core + "InstrumentPlugin"
    let count = Int(lilv_plugin_get_num_ports(plugin))
    var minimum = [Float](repeating: .nan, count: count)
    var maximum = [Float](repeating: .nan, count: count)
    var defaults = [Float](repeating: .nan, count: count)
    lilv_plugin_get_port_ranges_float(plugin, &minimum, &maximum, &defaults)
    self.ports = (0..<count).map { index in
      let port = lilv_plugin_get_port_by_index(plugin, UInt32(index))
      func isA(_ node: OpaquePointer) -> Bool { lilv_port_is_a(plugin, port, node) }
      let kind: LV2Port.Kind =
        isA(nodes.audio)
        ? .audio
        : isA(nodes.control) ? .control : isA(nodes.atom) ? .atom : isA(nodes.cv) ? .cv : .other
      return LV2Port(
        index: index,
        symbol: String(cString: lilv_node_as_string(lilv_port_get_symbol(plugin, port))),
        name: Self.take(lilv_port_get_name(plugin, port)) ?? "",
        kind: kind, isInput: isA(nodes.input), defaultValue: defaults[index],
        minimum: minimum[index], maximum: maximum[index],
        carriesMIDI: kind == .atom && lilv_port_supports_event(plugin, port, nodes.midiEvent))
    }
    self.requiredFeatures = Self.strings(lilv_plugin_get_required_features(plugin))
    self.isHardRealtimeCapable = lilv_plugin_has_feature(plugin, nodes.hardRTCapable)
    let state = lilv_new_uri(world.world, LV2URI.stateInterface)
    defer { lilv_node_free(state) }
    self.hasStateInterface = lilv_plugin_has_extension_data(plugin, state)
  }

  /// The file of its shared library.
  public var libraryPath: String? {
    LV2World.shared.lock.withLock { _ in
      guard let uri = lilv_plugin_get_library_uri(self.plugin),
        let path = lilv_file_uri_parse(lilv_node_as_uri(uri), nil)
      else { return nil }
      defer { lilv_free(path) }
      return String(cString: path)
    }
  }

  /// Why its library does not load (`dlerror`'s words, naming the file), or nil when it does:
  /// lilv says so only on standard error.
  public var libraryProblem: String? {
    guard let path = self.libraryPath else { return "lilv finds no library for it" }
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      return "its library does not load: " + (dlerror().map { String(cString: $0) } ?? path)
    }
    dlclose(handle)
    return nil
  }

  /// A node's text, freeing the node.
  private static func take(_ node: OpaquePointer?) -> String? {
    guard let node else { return nil }
    defer { lilv_node_free(node) }
    return String(cString: lilv_node_as_string(node))
  }

  /// The URIs in `nodes`, freeing them.
  private static func strings(_ nodes: UnsafeMutableRawPointer?) -> [String] {
    guard let nodes else { return [] }
    defer { lilv_nodes_free(nodes) }
    var found: [String] = []
    var iterator = lilv_nodes_begin(nodes)
    while !lilv_nodes_is_end(nodes, iterator) {
      if let node = lilv_nodes_get(nodes, iterator) {
        found.append(String(cString: lilv_node_as_string(node)))
      }
      iterator = lilv_nodes_next(nodes, iterator)
    }
    return found.sorted()
  }
}
