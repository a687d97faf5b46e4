import Foundation

/// Where a plugin file built by SwiftPM came from: the package whose sources made it, and the
/// build folder it was built in.
///
/// ```swift
/// // a `patchbay new` package, built by its make in the checkout's build folder:
/// let origin = PluginOrigin(plugin: "/work/patchbay/.build/debug/libHello.so")!
/// origin.package            // "/home/me/Hello"
/// origin.scratch            // "/work/patchbay/.build"
/// origin.buildArguments     // ["build", "--scratch-path", "/work/patchbay/.build"]
/// ```
///
/// A plain `swift build` puts a plugin in its own package's `.build`. A `patchbay new` package's
/// `make` puts it in the Patchbay checkout's `.build` instead, beside the bundled plugins and
/// the one SDK they all link. Which package built the file is read from SwiftPM's own records
/// in that folder: the product's link list names its objects, and the objects' target folder
/// names its sources (`output-file-map.json`). Without them (a C target), the package is the
/// one holding the `.build` folder.
struct PluginOrigin: Equatable {
  /// The package folder, holding the `Package.swift` that makes the plugin.
  let package: String
  /// `debug` or `release`.
  let configuration: String
  /// The build folder the file lies in (`--scratch-path`).
  let scratch: String
  /// Whether that build folder is a Patchbay checkout's: a build there runs as the checkout's
  /// make runs it, so the SDK built there is used as it is (docs/PLUGINS.md).
  let inPatchbayCheckout: Bool

  /// The origin of the plugin file at `plugin`, or nil when it is not in a package's `.build`.
  init?(plugin: String) {
    var folder = URL(fileURLWithPath: plugin).resolvingSymlinksInPath().deletingLastPathComponent()
    let products = folder
    let configuration = folder.lastPathComponent
    guard configuration == "debug" || configuration == "release" else { return nil }
    while folder.path != "/", folder.lastPathComponent != ".build" {
      folder.deleteLastPathComponent()
    }
    let owner = folder.deletingLastPathComponent()
    guard folder.lastPathComponent == ".build", Self.isPackage(owner) else { return nil }
    let file = URL(fileURLWithPath: plugin).lastPathComponent
    let name = String(file.dropFirst(3).dropLast(3))  // lib<Name>.so
    self.package = Self.sourcePackage(of: name, in: products) ?? owner.path
    self.configuration = configuration
    self.scratch = folder.path
    self.inPatchbayCheckout = isPatchbayCheckout(owner)
  }

  /// `swift` arguments that build the package into the folder the plugin came from.
  var buildArguments: [String] {
    ["build"] + (self.configuration == "release" ? ["-c", "release"] : [])
      + (self.scratch == self.package + "/.build" ? [] : ["--scratch-path", self.scratch])
  }

  /// The environment a build adds: in a Patchbay checkout's build folder, what its make
  /// exports (otherwise the SDK is compiled again with other flags, and again by the next
  /// make of the checkout).
  var buildEnvironment: [String: String] {
    guard self.inPatchbayCheckout else { return [:] }
    return ["PATCHBAY_WARNINGS_AS_ERRORS": "1", "SWIFT_DETERMINISTIC_HASHING": "1"]
  }

  /// The package whose sources make product `name`, from SwiftPM's records in `products`:
  /// the first object of the product's link list, its target's output file map, a source
  /// there, and the folder above it that holds a `Package.swift`.
  private static func sourcePackage(of name: String, in products: URL) -> String? {
    let list = products.appendingPathComponent("\(name).product/Objects.LinkFileList")
    guard let objects = try? String(contentsOf: list, encoding: .utf8) else { return nil }
    for object in objects.split(separator: "\n") {
      let target = URL(fileURLWithPath: String(object).trimmingCharacters(in: ["\""]))
        .deletingLastPathComponent()
      let map = target.appendingPathComponent("output-file-map.json")
      guard let data = try? Data(contentsOf: map),
        let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let source = json.keys.first(where: { $0.hasPrefix("/") })
      else { continue }
      var folder = URL(fileURLWithPath: source).deletingLastPathComponent()
      while folder.path != "/" {
        if Self.isPackage(folder) { return folder.path }
        folder.deleteLastPathComponent()
      }
    }
    return nil
  }

  private static func isPackage(_ folder: URL) -> Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
  }
}

/// Whether `folder` holds a Patchbay checkout (its `Package.swift` names the package Patchbay).
package func isPatchbayCheckout(_ folder: URL) -> Bool {
  let manifest = folder.appendingPathComponent("Package.swift")
  let text = try? String(contentsOf: manifest, encoding: .utf8)
  return text?.contains("name: \"Patchbay\"") == true
}
