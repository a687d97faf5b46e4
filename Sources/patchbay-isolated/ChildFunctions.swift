import Foundation
import PatchbayFunctions
import PatchbayLoader

/// Where an isolated plugin's imports resolve ("patchbay.functions/1"): in its own process,
/// among the app's other plugin files, each loaded here the first time a function of it is
/// asked for. A provider is a plugin id or name, or the id of a feature of it, as in the host.
///
/// ```swift
/// let functions = ChildFunctions(files: ["/…/libTheory.so"], loader: loader)
/// let pointer = try functions.resolve("dev.patchbay.theory-plugin", "note_frequency",
///                                     "double(int32, double)")
/// ```
///
/// What it resolves is the provider's code as the file holds it when first asked: a swap of
/// the provider in the host does not reach this process.
///
/// `@unchecked Sendable`: what it loads is kept under `lock`.
final class ChildFunctions: @unchecked Sendable {
  private let files: [String]
  private let loader: PluginLoader
  private let lock = NSLock()
  private var loaded: [String: LoadedPlugin] = [:]

  init(files: [String], loader: PluginLoader) {
    self.files = files
    self.loader = loader
  }

  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  func resolve(_ provider: String, _ name: String, _ signatureText: String) throws
    -> UnsafeRawPointer
  {
    let signature: FunctionSignature
    do {
      signature = try FunctionSignature(parsing: signatureText)
    } catch {
      throw Refusal(description: "\(provider).\(name): \(error)")
    }
    guard let plugin = try self.provider(provider) else {
      throw Refusal(
        description: "\(provider).\(name): no plugin or feature '\(provider)' is among the "
          + "app's plugins, where an isolated plugin's imports are found. Load it in the app.")
    }
    guard let function = plugin.function(name) else {
      let names = plugin.functions.map(\.name)
      throw Refusal(
        description: "\(plugin.name).\(name): \(plugin.path) exports no function '\(name)'. "
          + (names.isEmpty ? "It exports none." : "It exports: \(names.joined(separator: ", ")).")
      )
    }
    guard function.signature == signature else {
      throw Refusal(
        description: "\(plugin.name).\(name): is \(function.signature), not \(signature). "
          + "Resolve it with its signature.")
    }
    return function.pointer
  }

  /// The plugin `provider` names, loading the app's files until one does.
  private func provider(_ provider: String) throws -> LoadedPlugin? {
    try self.lock.withLock { () throws -> LoadedPlugin? in
      func matches(_ plugin: LoadedPlugin) -> Bool {
        plugin.id == provider || plugin.name == provider || plugin.feature(provider) != nil
      }
      if let plugin = self.loaded.values.first(where: matches) { return plugin }
      for file in self.files where self.loaded[file] == nil {
        let plugin = try self.loader.load(file)
        self.loaded[file] = plugin
        if matches(plugin) { return plugin }
      }
      return nil
    }
  }
}
