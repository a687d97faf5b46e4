import CounterFeature
import Foundation
import PatchbayPlugin

/// A Swift plugin that exports `Counter` under an id taken from its file name, so copies of
/// one build are distinct plugins: `libStartup7.so` exports `dev.patchbay.fixture.startup7`.
/// The startup benchmark loads ten of them (real Swift plugins of real size), which a build of
/// ten separate packages would otherwise have to provide.
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  let name = loadedFileStem() ?? "numbered"
  return PluginExport.entry(
    id: "dev.patchbay.fixture.\(name)-plugin", name: "Fixture \(name)", version: "1.0.0",
    features: [.feature(Counter.self, id: "dev.patchbay.fixture.\(name)")],
    hostABIMajor: hostABIMajor
  )
}

/// `startup7` for `/tmp/patchbay-42/libStartup7.1.so`: the name after `lib`, up to its first
/// dot. Found in `/proc/self/maps`, as the file mapped where this library's code is (Glibc's
/// module leaves out `dladdr`).
private func loadedFileStem() -> String? {
  let address = UInt(bitPattern: #dsohandle)
  guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else {
    return nil
  }
  for line in maps.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count >= 6 else { continue }
    let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
    guard range.count == 2, range[0] <= address, address < range[1] else { continue }
    var name = Substring(fields[5].split(separator: "/").last ?? "")
    if name.hasPrefix("lib") { name = name.dropFirst(3) }
    return name.split(separator: ".").first.map { $0.lowercased() }
  }
  return nil
}
