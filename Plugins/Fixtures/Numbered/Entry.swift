import Foundation
import PatchbayPlugin

/// A Swift plugin that exports `Tally` under an id taken from its file name, so copies of
/// one build are distinct plugins: `libStartup7.so` exports `dev.patchbay.fixture.startup7`.
/// The startup benchmark loads ten of them (real Swift plugins of real size), which a build of
/// ten separate packages would otherwise have to provide.
///
/// The host loads a copy of the file (`<private folder>/libStartup7.<generation>.<load>.so`);
/// its name is the path /proc/self/maps gives for this image. When that cannot be read, the
/// entry returns NULL and logs why, rather than exporting an id nobody asked for.
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  guard let path = loadedPath(), let name = fileStem(path) else {
    FileHandle.standardError.write(
      Data("NumberedFixture: cannot tell which file this image was loaded from (dladdr)\n".utf8))
    return nil
  }
  return PluginExport.entry(
    id: "dev.patchbay.fixture.\(name)-plugin", name: "Fixture \(name)", version: "1.0.0",
    features: [.feature(Tally.self, id: "dev.patchbay.fixture.\(name)")],
    hostABIMajor: hostABIMajor
  )
}

/// `startup7` for `/tmp/patchbay-42/libStartup7.1.3.so`: the name after `lib`, up to its
/// first dot.
private func fileStem(_ path: String) -> String? {
  var name = Substring(path.split(separator: "/").last ?? "")
  if name.hasPrefix("lib") { name = name.dropFirst(3) }
  guard let stem = name.split(separator: ".").first, !stem.isEmpty else { return nil }
  return stem.lowercased()
}

/// The path this image was opened as: the line of /proc/self/maps whose address range holds
/// this image's header (`#dsohandle`).
private func loadedPath() -> String? {
  let address = UInt(bitPattern: #dsohandle)
  guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else {
    return nil
  }
  for line in maps.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
    guard range.count == 2, (range[0]..<range[1]).contains(address), fields.count >= 6 else {
      continue
    }
    // The host unlinks its copy right after dlopen: the kernel then says "(deleted)".
    let path = fields[5...].joined(separator: " ")
    return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
  }
  return nil
}
