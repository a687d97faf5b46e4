import Foundation
import PatchbayHost
import PatchbayLoader
import Testing

@Suite struct PluginLoaderTests {
  @Test func loadsTheSwiftAndTheCPluginsSideBySide() throws {
    let loader = BuiltPlugins.loader
    let counter = try loader.load("Counter")
    let echo = try loader.load(try BuiltPlugins.path("Echo"))
    #expect(counter.id == "dev.patchbay.counter-plugin")
    #expect(counter.version == "1.0.0")
    #expect(counter.abiMajor == 2)
    #expect(counter.features.map(\.id) == ["dev.patchbay.counter"])
    #expect(counter.features[0].actions.map(\.signature).contains("setStep(by: int)"))
    #expect(echo.features.map(\.id) == ["dev.patchbay.echo"])
    #expect(echo.features[0].actions.map(\.signature) == ["say(text: string)"])
    var registry = FeatureRegistry()
    try registry.add(counter)
    try registry.add(echo)
    #expect(registry.featureIDs == ["dev.patchbay.counter", "dev.patchbay.echo"])
  }

  @Test func eachLoadIsANewGeneration() throws {
    let loader = BuiltPlugins.loader
    let first = try loader.load("Counter")
    let second = try loader.load("Counter")
    #expect(second.generation > first.generation)  // other tests load Counter too
    let a = try FeatureHandle(feature: first.features[0])
    let b = try FeatureHandle(feature: second.features[0])
    try a.send(text: "increment")
    try b.send(text: "setStep(by: 7)")
    try b.send(text: "increment")
    #expect(try a.stateValue()[field: "count"] == 1)
    #expect(try b.stateValue()[field: "count"] == 7)
  }
}

/// The generation copy: only what `dlopen` maps, and still a working plugin.
@Suite struct GenerationCopyTests {
  @Test func copiesTheLoadedBytesOnlyAndTheCopyStillLoads() throws {
    let source = "\(BuiltPlugins.directory)/libCounter.so"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let generations = GenerationPath(directory: folder)
    let copy = try generations.copy(URL(fileURLWithPath: source), generation: 1)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sourceSize = try #require(
      FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
    let copySize = try #require(
      FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int)
    #expect(copySize < sourceSize)  // the debug sections stay behind
    let header = try #require(FileHandle(forReadingAtPath: copy.path)?.readData(ofLength: 64))
    #expect(header[0x28..<0x30].allSatisfy { $0 == 0 })  // e_shoff: no section headers
    #expect(header[0x3C..<0x40].allSatisfy { $0 == 0 })  // e_shnum, e_shstrndx
    try BuiltPlugins.linkSDK(into: folder)
    let plugin = try PluginLoader().load(copy.path)
    let counter = try FeatureHandle(feature: plugin.features[0])
    try counter.send(text: "increment")
    #expect(try counter.stateValue()[field: "count"] == 1)
  }

  @Test func aFileThatIsNotELFIsCopiedWhole() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("libText.so")
    try "not a library".write(to: text, atomically: true, encoding: .utf8)
    let copy = try GenerationPath(directory: folder).copy(text, generation: 1)
    #expect(try String(contentsOf: copy, encoding: .utf8) == "not a library")
  }
}

/// Every way a plugin file can be wrong: each a one-line error naming the file and the fix,
/// while an already running feature keeps its state.
@Suite struct PluginLoaderBadInputTests {
  let running: FeatureHandle

  init() throws {
    self.running = try FeatureHandle(feature: try BuiltPlugins.loader.load("Counter").features[0])
    try self.running.send(text: "setStep(by: 3)")
    try self.running.send(text: "increment")
  }

  private func expectStillRunning() throws {
    try self.running.send(text: "increment")
    #expect(try self.running.stateValue()[field: "count"] == 6)
  }

  private func loadError(_ nameOrPath: String, searchPaths: [String]? = nil) -> String {
    var loader = BuiltPlugins.loader
    if let searchPaths { loader.searchPaths = searchPaths }
    return errorMessage { _ = try loader.load(nameOrPath) }
  }

  @Test func fileNotFound() throws {
    #expect(
      loadError("/nonexistent/libGhost.so")
        == "/nonexistent/libGhost.so: file not found. Check the path, or build the plugin first (swift build)."
    )
    let byName = loadError("Ghost", searchPaths: ["/nowhere", "/neither"])
    #expect(
      byName
        == "Ghost: no libGhost.so in /nowhere, /neither. Build it (swift build --product Ghost), add its folder to the search paths, or pass the file's path."
    )
    try self.expectStillRunning()
  }

  @Test func garbageBytesAndText() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let garbage = folder.appendingPathComponent("garbage.so")
    try Data([0xDE, 0xAD, 0xBE, 0xEF, 1, 2, 3]).write(to: garbage)
    #expect(
      loadError(garbage.path)
        == "\(garbage.path): not a shared object (starts with de ad be ef, not an ELF header). Point at the .so that swift build produced."
    )
    let empty = folder.appendingPathComponent("empty.so")
    try Data().write(to: empty)
    #expect(loadError(empty.path).contains("not a shared object (starts with nothing"))
    var executable = Data([0x7F, 0x45, 0x4C, 0x46] + [UInt8](repeating: 0, count: 12) + [2, 0])
    executable.append(Data(count: 64))
    let notLibrary = folder.appendingPathComponent("exec.so")
    try executable.write(to: notLibrary)
    #expect(
      loadError(notLibrary.path).contains("is an ELF file but not a shared library (e_type 2)"))
    try self.expectStillRunning()
  }

  @Test func truncatedSharedObject() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let truncated = folder.appendingPathComponent("truncated.so")
    let full = try Data(contentsOf: URL(fileURLWithPath: try BuiltPlugins.path("Echo")))
    try full.prefix(200).write(to: truncated)
    let message = loadError(truncated.path)
    #expect(message.hasPrefix("\(truncated.path): dlopen failed: "))
    #expect(message.hasSuffix("Rebuild the plugin for this system."))
    try self.expectStillRunning()
  }

  @Test func missingEntrySymbol() throws {
    let path = try BuiltPlugins.path("TestFixtureNoEntry")
    #expect(
      loadError(path).hasPrefix(
        "\(path): has no 'patchbay_plugin_entry' function, so it is not a Patchbay plugin. Export one"
      ))
    try self.expectStillRunning()
  }

  /// A feature built against ABI 2.3 has a vtable without `cancel_effects_keyed`: it loads,
  /// and its effects end at a swap, as they did then.
  @Test func aVtableBuiltAgainstABI23Loads() throws {
    let plugin = try BuiltPlugins.loader.load(try BuiltPlugins.fixture("vtable23"))
    #expect(plugin.features.map(\.id) == ["dev.patchbay.fixture"])
    #expect(plugin.features[0].code.cancelsByKey == false)
  }

  @Test(arguments: [
    ("null", "patchbay_plugin_entry returned NULL for host ABI 2: the plugin refused to start."),
    ("magic", "wrong magic 0x12345678 in the plugin descriptor (expected 0x59414250 \"PBAY\")"),
    (
      "abi",
      "built for plugin ABI 3.7, but this host speaks ABI 2.7. Rebuild the plugin against this host's patchbay.h."
    ),
    ("small", "pb_plugin_desc.struct_size is 16, smaller than the 56 bytes ABI 2.0 requires."),
    (
      "smallfeature",
      "feature 0: pb_feature_desc.struct_size is 12, smaller than the 64 bytes ABI 2.0 requires."
    ),
    (
      "smallvtable",
      "feature 'dev.patchbay.fixture': pb_feature_vtable.struct_size is 72, smaller than the 88 bytes ABI 2.0 requires."
    ),
    (
      "noreduce",
      "feature 'dev.patchbay.fixture': the vtable's required function 'reduce' is NULL. Implement it."
    ),
    (
      "duplicate", "declares feature id 'dev.patchbay.fixture' twice. Give each feature its own id."
    ),
    (
      "twofunctions",
      "exports function 'note_frequency' twice. Give each function its own name."
    ),
    (
      "bigevents",
      "feature 'dev.patchbay.fixture': the processor declares 1000 output events a period; the most is 256."
    ),
    (
      "bigparameters",
      "feature 'dev.patchbay.fixture': the processor declares a 8192-byte parameter block; the most is 4096."
    ),
    (
      "noparameterwriter",
      "feature 'dev.patchbay.fixture': the processor declares 8 parameter bytes but no write_parameters."
    ),
    (
      "noprocess",
      "feature 'dev.patchbay.fixture': the processor function 'process' is NULL, but the feature claims a processor."
    ),
    // Counts and structs the loader reads: refused before any walk.
    (
      "hugeactioncount",
      "declares 2147483647 actions in feature 'dev.patchbay.fixture', more than the 1024 a plugin may"
    ),
    (
      "hugefeaturecount",
      "declares 2147483647 features, more than the 64 a plugin may (patchbay.h)."
    ),
    ("hugefunctioncount", "declares 2147483647 functions, more than the 1024 a plugin may"),
    (
      "nullactions",
      "declares 3 actions in feature 'dev.patchbay.fixture' but their array is NULL. Point it at them."
    ),
    ("unnamedaction", "feature 'dev.patchbay.fixture': action 0 has no name. Give it one."),
    (
      "smallaction",
      "feature 'dev.patchbay.fixture', action 0: pb_action_desc.struct_size is 8, smaller than the 40 bytes ABI 2.0 requires."
    ),
    (
      "unnamedfield",
      "feature 'dev.patchbay.fixture', action 'set': field 0 has no name or no type."
    ),
  ])
  func misbehavingDescriptors(_ mode: String, _ expected: String) throws {
    let path = try BuiltPlugins.fixture(mode)
    let message = loadError(path)
    #expect(message.hasPrefix("\(path): "))
    #expect(message.contains(expected))
    try self.expectStillRunning()
  }

  @Test func validFixtureLoads() throws {
    let plugin = try BuiltPlugins.loader.load(try BuiltPlugins.fixture("fine"))
    #expect(plugin.features.map(\.id) == ["dev.patchbay.fixture"])
  }

  @Test func copiesOfTheNumberedCFixtureAreDistinctPlugins() throws {
    let loader = BuiltPlugins.loader
    var registry = FeatureRegistry()
    let fixture = try BuiltPlugins.fixture("numbered7")
    // The growth benchmarks name their copies lib<mode>.so: the fixture reads past the "lib".
    let library = URL(fileURLWithPath: fixture).deletingLastPathComponent()
      .appendingPathComponent("libnumbered8.so").path
    try FileManager.default.copyItem(atPath: fixture, toPath: library)
    for path in [fixture, library] { try registry.add(try loader.load(path)) }
    #expect(
      registry.plugins.map(\.features).map { $0.map(\.id) } == [
        ["dev.patchbay.fixture.numbered7"], ["dev.patchbay.fixture.numbered8"],
      ])
    #expect(
      registry.plugins.map(\.id) == [
        "dev.patchbay.fixture.numbered7-plugin", "dev.patchbay.fixture.numbered8-plugin",
      ])
  }

  @Test func twoPluginsDeclaringTheSameFeatureID() throws {
    let loader = BuiltPlugins.loader
    var registry = FeatureRegistry()
    try registry.add(try loader.load("Counter"))
    let impostor = try loader.load(try BuiltPlugins.fixture("counterid"))
    let message = errorMessage { try registry.add(impostor) }
    #expect(
      message
        == "\(impostor.path): declares feature 'dev.patchbay.counter', which \(try BuiltPlugins.path("Counter")) already declares. Load only one of them, or give one feature another id."
    )
    #expect(registry.plugins.count == 1)
    try self.expectStillRunning()
  }

  @Test func createFailing() throws {
    let plugin = try BuiltPlugins.loader.load(try BuiltPlugins.fixture("createfails"))
    let message = errorMessage { _ = try FeatureHandle(feature: plugin.features[0]) }
    #expect(
      message
        == "dev.patchbay.fixture-create-fails: create failed: dev.patchbay.fixture-create-fails: the fixture always refuses to start"
    )
    try self.expectStillRunning()
  }
}

@Suite struct ActionSignatureTests {
  /// A field written by position (`_0`) reads `_` in a signature; labelled ones keep theirs.
  @Test func unlabeledFieldsReadAsUnderscores() {
    let action = ActionInfo(
      name: "rename", summary: "",
      fields: [
        .init(name: "_0", type: "string"), .init(name: "loud", type: "bool"),
        .init(name: "_2", type: "int"),
      ])
    #expect(action.signature == "rename(_: string, loud: bool, _: int)")
    #expect(ActionInfo(name: "start", summary: "", fields: []).signature == "start")
  }
}
