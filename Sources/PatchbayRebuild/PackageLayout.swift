import Foundation

/// What `swift package describe --type json` says of a package: its products' targets and
/// their folders.
struct PackageLayout {
  let package: String
  /// Each target's folder (relative to the package) and the products it is part of.
  let targets: [(path: String, products: [String])]

  init?(package: String) {
    let process = Process()
    let swift = ProcessInfo.processInfo.environment["SWIFT"] ?? "swift"
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [swift, "package", "describe", "--type", "json"]
    process.currentDirectoryURL = URL(fileURLWithPath: package)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let targets = json["targets"] as? [[String: Any]]
    else { return nil }
    self.package = package
    self.targets = targets.compactMap { target in
      guard let path = target["path"] as? String else { return nil }
      return (path, target["product_memberships"] as? [String] ?? [])
    }
  }

  /// The product named `name`, with the folders of its targets and their subfolders.
  func product(_ name: String, origin: PluginOrigin) -> PluginRebuilder.Product? {
    let roots = self.targets.filter { $0.products.contains(name) }.map {
      URL(fileURLWithPath: self.package).appendingPathComponent($0.path).standardizedFileURL
    }
    guard !roots.isEmpty else { return nil }
    var folders: Set<String> = []
    for root in roots {
      folders.insert(root.path)
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
      while let url = walker?.nextObject() as? URL {
        if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
          folders.insert(url.standardizedFileURL.path)
        }
      }
    }
    return PluginRebuilder.Product(name: name, origin: origin, folders: folders.sorted())
  }
}
