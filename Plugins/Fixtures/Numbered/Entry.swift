import CounterFeature
import Foundation
import PatchbayPlugin

/// A Swift plugin that exports `Counter` under an id taken from its file name, so copies of
/// one build are distinct plugins: `libStartup7.so` exports `dev.patchbay.fixture.startup7`.
/// The startup benchmark loads ten of them (real Swift plugins of real size), which a build of
/// ten separate packages would otherwise have to provide.
///
/// The host loads a copy of the file (`<private folder>/libStartup7.<generation>.<load>.so`);
/// its name is what `dladdr` says this image was opened as. When that cannot be read, the
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
    features: [.feature(Counter.self, id: "dev.patchbay.fixture.\(name)")],
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

/// The path this image was opened as, from `dladdr` on an address inside it (glibc's; the
/// Glibc module leaves it out, as it is a GNU extension).
private func loadedPath() -> String? {
  struct DLInfo {
    var fileName: UnsafePointer<CChar>? = nil
    var base: UnsafeMutableRawPointer? = nil
    var symbolName: UnsafePointer<CChar>? = nil
    var symbolAddress: UnsafeMutableRawPointer? = nil
  }
  typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer) -> Int32
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dladdr") else { return nil }
  let dladdr = unsafeBitCast(symbol, to: DLAddr.self)
  var info = DLInfo()
  guard dladdr(#dsohandle, &info) != 0, let fileName = info.fileName else { return nil }
  return String(cString: fileName)
}
