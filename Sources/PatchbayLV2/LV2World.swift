import CLilv
import Foundation
import Synchronization

/// The LV2 plugins installed on this machine, found by lilv in `$LV2_PATH` (by default
/// `~/.lv2`, `/usr/local/lib/lv2` and `/usr/lib/lv2`).
///
/// ```swift
/// let world = LV2World.shared
/// for plugin in world.plugins { print(plugin.uri, plugin.name) }
/// let eq = try world.plugin(uri: "http://gareus.org/oss/lv2/fil4#stereo")
/// ```
///
/// One world per process, loaded once (lilv reads every bundle's Turtle: tens of
/// milliseconds), and never freed: plugins and instances point into it. lilv is not
/// thread-safe, so every call into the world holds its lock; an instance's `run` never does.
public final class LV2World: @unchecked Sendable {
  /// The world of this process, loaded on first use.
  public static let shared = LV2World()

  let world: OpaquePointer
  /// Held around every call into lilv.
  let lock = Mutex<Void>(())
  let nodes: Nodes

  private init() {
    // Some plugins are Qt programs even in their sound part (synthv1 makes a QApplication when
    // it is instantiated), and Qt aborts the process when it finds no display: headless, they
    // get Qt's offscreen platform, unless the user chose one.
    if getenv("DISPLAY") == nil, getenv("WAYLAND_DISPLAY") == nil, getenv("QT_QPA_PLATFORM") == nil
    {
      setenv("QT_QPA_PLATFORM", "offscreen", 0)
    }
    self.world = lilv_world_new()
    lilv_world_load_all(self.world)
    self.nodes = Nodes(world: self.world)
  }

  /// Adds the plugins of the bundle at `path` (a `NAME.lv2` folder), beside those in
  /// `$LV2_PATH`: for a plugin being developed, or a test's fixture.
  public func loadBundle(_ path: String) {
    self.lock.withLock { _ in
      let folder = path.hasSuffix("/") ? path : path + "/"
      let uri = lilv_new_file_uri(self.world, nil, folder)
      defer { lilv_node_free(uri) }
      lilv_world_load_bundle(self.world, uri)
    }
  }

  /// Makes a bundle in a temporary folder from a `manifest` and the `library` it names as
  /// `binary`, and loads it (``loadBundle(_:)``); returns the folder. For a plugin built by
  /// SwiftPM, whose library is not yet in a bundle (the tests' fixtures).
  @discardableResult
  public func loadBundle(manifest: String, library: String, as binary: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-lv2-\(getpid())-\(UUID().uuidString.prefix(8)).lv2")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: manifest, toPath: folder.appendingPathComponent("manifest.ttl").path)
    try FileManager.default.copyItem(
      atPath: library, toPath: folder.appendingPathComponent(binary).path)
    self.loadBundle(folder.path)
    return folder.path
  }

  /// Every plugin lilv found, sorted by URI.
  public var plugins: [LV2PluginInfo] {
    self.lock.withLock { _ in
      var found: [LV2PluginInfo] = []
      let all = lilv_world_get_all_plugins(self.world)
      var iterator = lilv_plugins_begin(all)
      while !lilv_plugins_is_end(all, iterator) {
        if let plugin = lilv_plugins_get(all, iterator) {
          found.append(LV2PluginInfo(plugin, in: self))
        }
        iterator = lilv_plugins_next(all, iterator)
      }
      return found.sorted { $0.uri < $1.uri }
    }
  }

  /// The plugin `uri` names; throws, naming it and how to list what is installed, when none
  /// does.
  public func plugin(uri: String) throws(LV2Error) -> LV2PluginInfo {
    let found: LV2PluginInfo? = self.lock.withLock { _ in
      let node = lilv_new_uri(self.world, uri)
      defer { lilv_node_free(node) }
      guard let plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(self.world), node)
      else { return nil }
      return LV2PluginInfo(plugin, in: self)
    }
    guard let found else {
      throw LV2Error(
        "no LV2 plugin <\(uri)> is installed: list them with `patchbay lv2 list` (Debian: "
          + "apt-get install x42-plugins lsp-plugins-lv2; or set LV2_PATH)")
    }
    return found
  }

  /// lilv nodes for the classes and properties the host asks about, made once.
  struct Nodes: @unchecked Sendable {
    let audio, control, cv, atom, input, output, hardRTCapable, supports, midiEvent, preset,
      label: OpaquePointer

    init(world: OpaquePointer) {
      func uri(_ text: String) -> OpaquePointer { lilv_new_uri(world, text) }
      (self.audio, self.control, self.cv, self.atom) = (
        uri(LV2URI.audioPort), uri(LV2URI.controlPort), uri(LV2URI.cvPort), uri(LV2URI.atomPort)
      )
      (self.input, self.output) = (uri(LV2URI.inputPort), uri(LV2URI.outputPort))
      self.hardRTCapable = uri(LV2URI.hardRTCapable)
      (self.supports, self.midiEvent) = (uri(LV2URI.atomSupports), uri(LV2URI.midiEvent))
      (self.preset, self.label) = (uri(LV2URI.preset), uri(LV2URI.rdfsLabel))
    }
  }
}

/// Why an LV2 plugin cannot be found, used or set: one line, with what to do.
public struct LV2Error: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
