import Foundation
import PatchbayPlugin

/// A Swift plugin whose file name says what it exports, so copies of one build are distinct
/// plugins. `libStartup7.so` exports `Tally` as `dev.patchbay.fixture.startup7`: the startup
/// benchmark loads ten of them (real Swift plugins of real size), which a build of ten
/// separate packages would otherwise have to provide. `libTicker.so`, `libTickerRenamed.so`
/// and `libTickerResuming.so` export three builds of one ticker (Ticker.swift).
///
/// The host loads a copy of the file (`<private folder>/libStartup7.<generation>.<load>.so`);
/// its name is the path /proc/self/maps gives for this image. When that cannot be read, the
/// entry returns NULL and logs why, rather than exporting an id nobody asked for.
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  guard let path = loadedPath(), let name = fileStem(path) else {
    FileHandle.standardError.write(
      Data("NumberedFixture: /proc/self/maps does not name this image's file\n".utf8))
    return nil
  }
  let features: [FeatureDriver]
  switch name {
  case "ticker": features = [.feature(Ticker.self)]
  case "tickerrenamed": features = [.feature(TickerRenamed.self)]
  case "tickerresuming": features = [.feature(TickerResuming.self)]
  default: features = [.feature(Tally.self, id: "dev.patchbay.fixture.\(name)")]
  }
  return PluginExport.entry(
    id: "dev.patchbay.fixture.\(name)-plugin", name: "Fixture \(name)", version: "1.0.0",
    features: features, hostABIMajor: hostABIMajor
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
/// this image's header (`#dsohandle`). The file is read to its end: it has no size to read
/// by, and a process with many plugins loaded (a test run) has a long one.
private func loadedPath() -> String? {
  let address = UInt(bitPattern: #dsohandle)
  guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
  defer { try? file.close() }
  let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
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
