import CPatchbayCrash
import Foundation
import PatchbayABI
import PatchbayDigest

#if canImport(Glibc)
  import Glibc
#endif

/// Finds plugin libraries, loads them with `dlopen`, and validates what they declare.
///
/// ```swift
/// var loader = PluginLoader(searchPaths: [".build/debug"])
/// let counter = try loader.load("Counter")          // finds .build/debug/libCounter.so
/// let echo = try loader.load("/opt/plugins/libEcho.so")
/// ```
///
/// Every load copies the file to a new ``GenerationPath`` first and opens it with
/// `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`; nothing is ever `dlclose`d. A plugin is refused, with
/// a one-line ``PluginLoadError`` naming the file and the fix, when the file is missing or not
/// a shared object, lacks `patchbay_plugin_entry`, returns NULL, has the wrong magic or ABI
/// major, declares structs smaller than the ABI requires, or misses a required function.
public struct PluginLoader: Sendable {
  /// Folders searched, in order, for a plugin given by name.
  public var searchPaths: [String]
  /// Loads plugins that others could have written (``PluginFileTrust``); off by default.
  public var allowsInsecurePaths = false
  /// The SHA-256 a file must have, by path (`[sha256]` in host-config). The whole file is
  /// copied and its copy hashed before `dlopen`, so what is checked is what is loaded.
  public var pins: [String: String] = [:]
  /// Plugins to run in a process of their own, by the names `load` takes ("Synth"), their
  /// paths, or "all" (`[plugins] isolate` in host-config, `--isolate`).
  public var isolated: Set<String> = []
  /// What loads them (PatchbayIsolation's `ProcessIsolator`); without one, an isolated
  /// plugin is refused.
  package var isolator: (any PluginIsolator)?
  /// The files of the app's plugins: where an isolated plugin's process finds the providers
  /// of the functions it imports (it loads them itself).
  public var functionProviders: [String] = []
  /// What an isolated plugin's sandbox lets it do after all, by file (`[sandbox]` in
  /// host-config): "sockets", "exec", "ptrace". Without, it may do none of them. For a
  /// WebAssembly plugin, the services it may import: "midi", "navigation", "shared",
  /// "functions".
  public var sandboxAllows: [String: [String]] = [:]
  /// Whether ``sandboxAllows`` is all a plugin kind that confines its plugin (WebAssembly) may
  /// grant it: true for an app's config, where a `.wasm` file it does not name gets none of
  /// the services it lists. False (the default: `inspect`, `validate`, `call`, a plugin tried
  /// alone) grants such a plugin every service.
  public var sandboxIsListed = false
  /// Loaders of references that name no file, by scheme: `lv2:URI` once PatchbayLV2Feature's
  /// `LV2FeaturePlugin.install(into:)` put one here.
  public var schemes: [String: any PluginScheme] = [:]
  /// Loaders of plugin files that are not libraries, by extension: `wasm` once PatchbayWasm's
  /// `WasmPlugin.install(into:)` put one here.
  public var fileKinds: [String: any PluginFileKind] = [:]
  let generations: GenerationPath

  public init(searchPaths: [String] = [], generations: GenerationPath = GenerationPath()) {
    self.searchPaths = searchPaths
    self.generations = generations
  }

  /// The file a plugin name or path refers to: a path as given (when it contains `/` or ends
  /// in `.so`), else `lib<Name>.so` (or `<Name>.so`) in the first search path that has it.
  public func locate(_ nameOrPath: String) throws(PluginLoadError) -> URL {
    if nameOrPath.contains("/") || nameOrPath.hasSuffix(".so") {
      let url = URL(fileURLWithPath: nameOrPath)
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw PluginLoadError(
          file: nameOrPath,
          "file not found. Check the path, or build the plugin first (swift build)."
        )
      }
      return url
    }
    for directory in self.searchPaths {
      for file in ["lib\(nameOrPath).so", "\(nameOrPath).so"] {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(file)
        if FileManager.default.fileExists(atPath: url.path) { return url }
      }
    }
    let searched =
      self.searchPaths.isEmpty ? "no search paths" : self.searchPaths.joined(separator: ", ")
    throw PluginLoadError(
      file: nameOrPath,
      "no lib\(nameOrPath).so in \(searched). Build it (swift build --product \(nameOrPath)), "
        + "add its folder to the search paths, or pass the file's path."
    )
  }

  /// Loads and validates a plugin given by name or path.
  public func load(_ nameOrPath: String) throws(PluginLoadError) -> LoadedPlugin {
    if let scheme = Self.scheme(of: nameOrPath) {
      guard let load = self.schemes[scheme] else {
        throw PluginLoadError(
          file: nameOrPath,
          "this command does not load '\(scheme):' plugins. Name it in an app's config "
            + "([[feature]] \(scheme) = \"…\"), and run the app.")
      }
      // Isolated, it is loaded here first, for the refusals, then in its own process.
      let plugin = try load.load(nameOrPath)
      guard self.isolates(nameOrPath, file: nameOrPath), load.isolates(plugin),
        let isolator = self.isolator,
        let isolated = try isolator.load(
          file: nameOrPath, generation: 1, loader: self,
          named: self.namesIsolated(nameOrPath, file: nameOrPath))
      else { return plugin }
      return isolated
    }
    if let kind = self.fileKind(of: nameOrPath) { return try self.load(nameOrPath, as: kind) }
    let source = try self.locate(nameOrPath)
    let file = source.path
    if !self.allowsInsecurePaths, let problem = PluginFileTrust.problem(with: file) {
      throw PluginLoadError(file: file, problem)
    }
    try Self.checkIsSharedObject(file)
    let generation = ProcessLoads.nextGeneration(of: file)
    if self.isolates(nameOrPath, file: file) {
      guard let isolator = self.isolator else {
        throw PluginLoadError(
          file: file,
          "is to run isolated, but this host cannot start plugin processes. Use the patchbay "
            + "command, or take the plugin out of [plugins] isolate.")
      }
      if let plugin = try isolator.load(
        file: file, generation: generation, loader: self,
        named: self.namesIsolated(nameOrPath, file: file))
      {
        plugin.fileIdentity = FileIdentity(path: file)
        return plugin
      }
    }

    let identity = FileIdentity(path: file)
    let siblings = SiblingLibraries(of: source)
    let handle = try ProcessLoads.whileLoading { loaded throws(PluginLoadError) in
      try siblings.checkAgainstLoaded(loaded, plugin: file)
      let copy: URL
      do {
        copy = try self.generations.copy(
          source, generation: generation, whole: self.pins[file] != nil)
      } catch {
        throw PluginLoadError(file: file, "cannot copy to a generation file: \(error)")
      }
      let links = siblings.link(into: copy.deletingLastPathComponent())
      defer {
        if !GenerationPath.keepsFiles {
          for file in [copy] + links { try? FileManager.default.removeItem(at: file) }
        }
      }
      if let pinned = self.pins[file] {
        // The copy is in a folder only this user can write: what is hashed is what is loaded.
        let hash = (try? SHA256.hex(ofFile: copy.path)) ?? "unreadable"
        try Self.check(hash, pinned: pinned, file: file)
      }
      guard let handle = dlopen(copy.path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
        let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
        throw Self.dlopenFailure(reason, file: file)
      }
      siblings.recordLoaded(in: &loaded)
      return handle
    }
    guard let symbol = dlsym(handle, PATCHBAY_PLUGIN_ENTRY) else {
      throw PluginLoadError(
        file: file,
        "has no 'patchbay_plugin_entry' function, so it is not a Patchbay plugin. Export one "
          + "(Swift: #plugin(id:name:version:features:) beside the features; C: see "
          + "patchbay/plugin.h)."
      )
    }
    let entry = unsafeBitCast(symbol, to: pb_plugin_entry_fn.self)
    guard let descriptor = entry(pb_abi_version(PATCHBAY_ABI_MAJOR)) else {
      throw PluginLoadError(
        file: file,
        "patchbay_plugin_entry returned NULL for host ABI \(PATCHBAY_ABI_MAJOR): the plugin "
          + "refused to start. Check its log, or rebuild it against this host's patchbay.h."
      )
    }
    let plugin = try Self.validate(descriptor, file: file, generation: generation)
    plugin.fileIdentity = identity
    // A crash in its code on a thread of its own (outside any call from the host) names it.
    _ = pb_crash_register_image(symbol, strdup("\(plugin.id) (\(file))"))
    return plugin
  }

  /// `lv2` for `lv2:http://…`: letters and digits before a colon; nil for a name or a path.
  package static func scheme(of reference: String) -> String? {
    guard let colon = reference.firstIndex(of: ":") else { return nil }
    let scheme = reference[..<colon]
    guard scheme.count >= 2, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else { return nil }
    return String(scheme)
  }

  /// Why `dlopen` refused `file`, and what to do.
  static func dlopenFailure(_ reason: String, file: String) -> PluginLoadError {
    let missing = ": cannot open shared object file"
    if let end = reason.range(of: missing) {
      let library = reason[..<end.lowerBound].split(separator: " ").last.map(String.init) ?? ""
      return PluginLoadError(
        file: file,
        "needs \(library), which is neither in its folder nor installed. Keep the plugin beside "
          + "the libraries swift build put next to it (a Swift plugin needs its "
          + "libPatchbaySDK.so: copy it along), or rebuild it."
      )
    }
    return PluginLoadError(
      file: file, "dlopen failed: \(reason). Rebuild the plugin for this system.")
  }

  /// Refuses files that are not ELF shared objects before `dlopen` sees them.
  static func checkIsSharedObject(_ file: String) throws(PluginLoadError) {
    guard let handle = FileHandle(forReadingAtPath: file) else {
      throw PluginLoadError(file: file, "cannot be read. Check its permissions.")
    }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 18)) ?? Data()
    let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
    guard header.count >= 18, Array(header.prefix(4)) == elf else {
      let start = header.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
      throw PluginLoadError(
        file: file,
        "not a shared object (starts with \(start.isEmpty ? "nothing" : start), not an ELF "
          + "header). Point at the .so that swift build produced."
      )
    }
    // e_type at offset 16 (little-endian on every platform Patchbay runs on): 3 = ET_DYN.
    guard header[16] == 3, header[17] == 0 else {
      throw PluginLoadError(
        file: file,
        "is an ELF file but not a shared library (e_type \(header[16])). Build the plugin as a "
          + ".library(type: .dynamic) product."
      )
    }
  }
}
