import Foundation
import NumberedFixtureSupport
import PatchbayPlugin

/// A Swift plugin whose file name says what it exports, so copies of one build are distinct
/// plugins. `libStartup7.so` exports `Tally` as `dev.patchbay.fixture.startup7`: the startup
/// benchmark loads ten of them (real Swift plugins of real size), which a build of ten
/// separate packages would otherwise have to provide. `libTicker.so`, `libTickerRenamed.so`,
/// `libTickerResuming.so`, `libTickerCrashing.so` and `libTickerTailing.so` export five
/// builds of one ticker (Ticker.swift, TickerTailing.swift), `libEvolve<Kind>.so` the builds of
/// one state after each kind of edit (Evolve.swift), `libLock.so` and `libLockFixed.so` a
/// fault four actions reach and its mend (Lock.swift), and `libShared<Name>.so` a feature that
/// holds `@Shared(.inMemory("tally"))` (SharedTally.swift).
///
/// The host loads a copy of the file (`<private folder>/libStartup7.<generation>.<load>.so`);
/// its name is the path the dynamic linker gives for this image. When it gives none, the entry
/// returns NULL and logs why, rather than exporting an id nobody asked for.
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  guard let path = loadedPath(), let name = fileStem(path) else {
    FileHandle.standardError.write(
      Data("NumberedFixture: the dynamic linker does not name this image's file (dladdr)\n".utf8))
    return nil
  }
  let features: [FeatureDriver]
  switch name {
  case "ticker": features = [.feature(Ticker.self)]
  case "tickerrenamed": features = [.feature(TickerRenamed.self)]
  case "tickerresuming": features = [.feature(TickerResuming.self)]
  case "tickercrashing": features = [.feature(TickerCrashing.self)]
  case "tickertailing": features = [.feature(TickerTailing.self)]
  case "lock": features = [.feature(Lock.self)]
  case "lockfixed":
    Lock.mended = true
    features = [.feature(Lock.self)]
  case "evolve": features = [.feature(Evolve.self)]
  case "evolveadded": features = [.feature(EvolveAdded.self)]
  case "evolveremoved": features = [.feature(EvolveRemoved.self)]
  case "evolvereordered": features = [.feature(EvolveReordered.self)]
  case "evolveoptional": features = [.feature(EvolveOptional.self)]
  case "evolvewidened": features = [.feature(EvolveWidened.self)]
  case "evolvecaseadded": features = [.feature(EvolveCaseAdded.self)]
  case "evolvenestedadded": features = [.feature(EvolveNestedAdded.self)]
  case "evolveretyped": features = [.feature(EvolveRetyped.self)]
  case "evolvecaseremoved": features = [.feature(EvolveCaseRemoved.self)]
  case "evolverenamed": features = [.feature(EvolveRenamed.self)]
  case "evolverenamedmarked": features = [.feature(EvolveRenamedMarked.self)]
  case "evolveelementadded": features = [.feature(EvolveElementAdded.self)]
  case "evolveint64": features = [.feature(EvolveInt64.self)]
  case "evolveoptionaladded": features = [.feature(EvolveOptionalAdded.self)]
  case "evolveenumfieldadded": features = [.feature(EvolveEnumFieldAdded.self)]
  case let name where name.hasPrefix("shared"):
    features = [.feature(SharedTally.self, id: "dev.patchbay.fixture.\(name)")]
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

/// The path this image was opened as, from the dynamic linker (`dladdr`). Not from
/// /proc/self/maps: a read of it while another thread maps a file can miss lines, and did
/// (a startup benchmark's plugin refused to start, once in many runs).
private func loadedPath() -> String? {
  numbered_image_path().map { String(cString: $0) }
}
