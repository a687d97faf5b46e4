import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayIsolation
import PatchbayLV2
import PatchbayLV2Fixtures
import PatchbayMIDI
import Testing

/// Debian's LV2 plugins (x42-plugins) as features of an app: the C Synth plays a held note
/// through them, offline. Their controls are state, set by actions, and what the state says is
/// what is heard.
@Suite struct LV2FeatureTests {
  static let eq = "http://gareus.org/oss/lv2/fil4#stereo"
  static let compressor = "http://gareus.org/oss/lv2/darc#stereo"

  /// The Synth at the root, `uri` under it (an effect: it works on the Synth's sound).
  static func toml(_ uri: String, extra: String = "", plugins: String = "") -> String {
    """
    [app]
    name = "Through LV2"
    root = "synth"

    [plugins]
    load = ["Synth"]
    \(plugins)

    [[feature]]
    key = "synth"
    id = "dev.patchbay.synth"

    [[feature]]
    key = "effect"
    lv2 = "\(uri)"
    parent = "synth"
    \(extra)
    """
  }

  static func app(_ uri: String, extra: String = "", plugins: String = "") throws -> AppRuntime {
    try makeApp(toml: Self.toml(uri, extra: extra, plugins: plugins))
  }

  /// The left channel of one second of an A4 held from frame 0, after `actions` to the effect.
  static func render(
    _ app: AppRuntime, after actions: [String] = [], beforePeriod: ((UInt64) -> Void)? = nil
  ) throws -> [Double] {
    for action in actions { try app.send("synth/effect", action) }
    let render = try OfflineRender(app: app, format: OfflineRenderTests.format)
    let song = try StandardMIDIFile(
      bytes: SMFBuilder.bytes([SMFBuilder.Note(tick: 0, length: 1_000, note: 69)]))
    let file = temporaryFile("lv2.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: OfflineRenderTests.format)
    render.run(
      frames: 48_000, midi: OfflineRender.schedule(song, sampleRate: 48_000), into: wav,
      beforePeriod: beforePeriod)
    wav.close()
    let samples = try Data(contentsOf: URL(fileURLWithPath: file)).dropFirst(44)
      .withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    return stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) }
  }

  /// The RMS of the steady middle of a render.
  static func rms(_ samples: [Double]) -> Double {
    let middle = samples[12_000..<36_000]
    return (middle.reduce(0) { $0 + $1 * $1 } / Double(middle.count)).squareRoot()
  }

  @Test func theEQsGainIsHeardAsItsStateSays() throws {
    let flat = Self.rms(try Self.render(try Self.app(Self.eq)))
    let app = try Self.app(Self.eq)
    let cut = Self.rms(try Self.render(app, after: ["set(port: \"gain\", value: -6)"]))
    #expect(flat > 1_000, "the Synth is heard through the EQ")
    #expect(abs(cut / flat - 0.501) < 0.01, "−6 dB: \(cut / flat) of the flat level")
    #expect(try app.state("synth/effect")[field: "gain"] == .double(-6))
  }

  @Test func twoRendersThroughTheCompressorAreByteIdentical() throws {
    let actions = ["set(port: \"Ratio\", value: 1)", "set(port: \"threshold\", value: -40)"]
    let first = try Self.render(try Self.app(Self.compressor), after: actions)
    let second = try Self.render(try Self.app(Self.compressor), after: actions)
    let plain = try Self.render(try Self.app(Self.compressor))
    #expect(first == second, "two renders differ")
    #expect(first != plain, "the ratio and threshold are heard")
  }

  @Test func aControlIsClampedToItsRangeAndAWrongOneIsOneLine() throws {
    let app = try Self.app(Self.eq)
    try app.send("synth/effect", "set(port: \"gain\", value: -100)")
    #expect(try app.state("synth/effect")[field: "gain"] == .double(-18))
    #expect {
      try app.send("synth/effect", "set(port: \"gian\", value: 1)")
    } throws: { error in
      let text = "\(error)"
      return text.contains("has no control input 'gian'") && text.contains("gain")
        && !text.contains("\n")
    }
    #expect(try app.state("synth/effect")[field: "gain"] == .double(-18), "nothing lost")
  }

  @Test func aPresetSetsTheControlsItNames() throws {
    let app = try Self.app("http://gareus.org/oss/lv2/fat1")
    try app.send("synth/effect", "preset(name: \"Live\")")
    let state = try app.state("synth/effect")
    #expect(state[field: "corr"] == .double(0.84))
    #expect(state[field: "fastmode"] == .double(1))
    try app.send("synth/effect", "reset")
    #expect(try app.state("synth/effect")[field: "corr"] == .double(1))
    #expect(throws: AppError.self) { try app.send("synth/effect", "preset(name: \"Studio\")") }
  }

  /// Halfway through the note, the EQ is swapped for a new load of itself: the new instance
  /// starts from the state, so the level after is the level before. (A new x42 EQ eases into
  /// its settings over a third of a second, as in any host that instantiates it: measured
  /// after that.)
  @Test func aSwapKeepsTheControlsAndTheSound() throws {
    let app = try Self.app(Self.eq)
    var swapError: (any Error)?
    let samples = try Self.render(app, after: ["set(port: \"gain\", value: -6)"]) { frame in
      guard frame == 24_064 else { return }
      do { try app.swap(Self.eq, to: "lv2:\(Self.eq)") } catch { swapError = error }
    }
    #expect(swapError == nil)
    #expect(try app.state("synth/effect")[field: "gain"] == .double(-6))
    let flat = try Self.render(try Self.app(Self.eq))
    let level = { (samples: [Double], range: Range<Int>) in
      (samples[range].reduce(0) { $0 + $1 * $1 } / Double(range.count)).squareRoot()
    }
    for (when, range) in [("before", 8_000..<24_000), ("after", 40_000..<46_000)] {
      let ratio = level(samples, range) / level(flat, range)
      #expect(abs(ratio - 0.501) < 0.01, "\(when) the swap: \(ratio) of the flat level")
    }
  }

  /// Isolated (`isolate = ["all"]`, or the plugin named as `load` would name it), the EQ runs
  /// in a process of its own: the mix goes there and comes back through the channel, and an
  /// offline render is the same, sample for sample, as in the app's process.
  @Test(arguments: ["\"all\"", "\"lv2:\(LV2FeatureTests.eq)\""])
  func anIsolatedEffectSoundsAsInProcess(isolate: String) throws {
    let actions = ["set(port: \"gain\", value: -6)"]
    let here = try Self.render(try Self.app(Self.eq), after: actions)
    let app = try Self.app(Self.eq, plugins: "isolate = [\(isolate)]")
    let before = IsolationStatistics.periods.rendered
    let isolated = try Self.render(app, after: actions)
    #expect(IsolationStatistics.periods.rendered >= before + 375, "the periods went there")
    #expect(isolated == here, "the isolated EQ sounds otherwise")
    #expect(try app.state("synth/effect")[field: "gain"] == .double(-6))
  }

  /// `optional = true`: a plugin that is not installed leaves a silent node with an empty
  /// state, one line says so, and the rest of the app plays.
  @Test func anOptionalPluginThatIsMissingLeavesTheAppPlaying() throws {
    let config = try AppConfig(
      parsing: Self.toml("http://example.org/not-installed", extra: "optional = true"),
      file: "studio.toml")
    let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
    let registry = try config.loadPlugins(with: loader)
    #expect(registry.notices.count == 1)
    let notice = try #require(registry.notices.first)
    #expect(notice.hasPrefix("studio.toml:13: feature \"effect\" plays without it: "))
    #expect(notice.contains("no LV2 plugin <http://example.org/not-installed> is installed"))
    let app = try AppRuntime(config: config, registry: registry, loader: loader)
    #expect(try app.state("synth/effect") == .record([]))
    #expect(throws: AppError.self) { try app.send("synth/effect", "reset") }
    #expect(Self.rms(try Self.render(app)) > 1_000, "the Synth plays on")
    #expect {
      try AppConfig(
        parsing: """
          [app]
          root = "synth"
          [[feature]]
          key = "synth"
          id = "dev.patchbay.synth"
          optional = true
          """, file: "a.toml")
    } throws: { "\($0)".contains("optional applies to an LV2 feature only") }
  }

  /// An app whose one feature is the LV2 instrument `uri`.
  static func instrument(_ uri: String) throws -> AppRuntime {
    try makeApp(toml: "[app]\nroot = \"synth\"\n[[feature]]\nkey = \"synth\"\nlv2 = \"\(uri)\"")
  }

  /// The left and right channels of `frames` frames with `note` held from frame `from` to `to`.
  static func play(_ app: AppRuntime, frames: Int, note: UInt8, from: UInt64, to: UInt64) throws
    -> (left: [Double], right: [Double])
  {
    let render = try OfflineRender(app: app, format: OfflineRenderTests.format)
    let file = temporaryFile("instrument.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: OfflineRenderTests.format)
    render.run(
      frames: frames,
      midi: [
        (from, MIDIEvent(.noteOn, channel: 0, note, 100)),
        (to, MIDIEvent(.noteOff, channel: 0, note, 0)),
      ], into: wav)
    wav.close()
    let samples = try Data(contentsOf: URL(fileURLWithPath: file)).dropFirst(44)
      .withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    return (
      stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) },
      stride(from: 1, to: samples.count, by: 2).map { Double(samples[$0]) }
    )
  }

  /// An LV2 instrument as a feature (the tone fixture, Plugins/Fixtures/LV2Worker): the app's
  /// MIDI reaches its atom input at the note's frame, and it adds to the mix beside the
  /// Synth; its reducer takes the MIDI as actions and changes nothing.
  @Test func anInstrumentPlaysTheAppsMIDIAtItsFrame() throws {
    try LV2Fixtures.loadWorker()
    let app = try Self.instrument("urn:patchbay:test:tone")
    // A4 at frame 1,000 (inside the eighth period), off at 6,000.
    let (left, right) = try Self.play(app, frames: 9_600, note: 69, from: 1_000, to: 6_000)
    #expect(left[..<1_001].allSatisfy { $0 == 0 }, "silent up to the note's frame")
    #expect(left[1_001..<1_100].contains { abs($0) > 1_000 }, "sounding from it")
    #expect(left == right, "its mono output on both channels")
    #expect(left[6_000...].allSatisfy { $0 == 0 }, "silent from the note-off's frame")
    #expect(try app.state("synth") == .record([]))
  }

  /// What the plugin keeps beyond its ports (the x42 EQ: its analyser's settings and its
  /// keyboard tuning) is the state's `lv2:state` field, as Turtle: restored into the playing
  /// instances (a new processor, made before it plays), kept by a swap; text lilv cannot read
  /// is one line, and the state stays as it was.
  @Test func whatThePluginKeepsBeyondItsPortsTravelsInTheState() throws {
    let app = try Self.app(Self.eq)
    let render = try OfflineRender(app: app, format: OfflineRenderTests.format)
    render.play(periods: 2)
    let saved = try #require(
      try LV2Instance(LV2World.shared.plugin(uri: Self.eq), sampleRate: 48_000, maximumFrames: 128)
        .savedState())
    let retuned = saved.replacingOccurrences(
      of: "#kbtuning> \"440.0\"", with: "#kbtuning> \"432.0\"")
    guard case .record(let fields) = try app.state("synth/effect") else {
      Issue.record("the state is not a record")
      return
    }
    let with = { (text: String) in
      WireValue.record(fields + [WireValue.Field("lv2:state", .string(text))]).bytes
    }
    try app.restore("synth/effect", state: with(retuned))
    render.play(periods: 2)
    #expect(try app.state("synth/effect")[field: "lv2:state"] == .string(retuned))
    try app.swap(Self.eq, to: "lv2:\(Self.eq)")
    #expect(try app.state("synth/effect")[field: "lv2:state"] == .string(retuned))
    #expect {
      try app.restore("synth/effect", state: with("not turtle {"))
    } throws: { "\($0)".contains("its saved state is not LV2 state lilv can read") }
    #expect(try app.state("synth/effect")[field: "lv2:state"] == .string(retuned))
  }

  /// A preset that sets what the plugin keeps beyond its ports (a fixture for the x42 EQ,
  /// `Fixtures/fil4-presets.lv2`) puts it in the state, and the graph makes a new processor
  /// from it while the note plays: the preset's −6 dB is heard after it.
  @Test func aPresetWithThePluginsOwnStateMakesANewProcessor() throws {
    LV2World.shared.loadBundle(
      URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fil4-presets.lv2").path)
    let app = try Self.app(Self.eq)
    var sent: (any Error)?
    let samples = try Self.render(app) { frame in
      guard frame == 12_032 else { return }
      do { try app.send("synth/effect", "preset(name: \"Retuned\")") } catch { sent = error }
    }
    #expect(sent == nil)
    let state = try app.state("synth/effect")
    #expect(state[field: "gain"] == .double(-6))
    guard case .string(let kept)? = state[field: "lv2:state"] else {
      Issue.record("no lv2:state in \(state)")
      return
    }
    #expect(kept.contains("#kbtuning> \"432.0\"^^xsd:float"))
    let flat = try Self.render(try Self.app(Self.eq))
    let level = { (samples: [Double], range: Range<Int>) in
      (samples[range].reduce(0) { $0 + $1 * $1 } / Double(range.count)).squareRoot()
    }
    #expect(abs(level(samples, 4_000..<12_000) / level(flat, 4_000..<12_000) - 1) < 0.01)
    let after = level(samples, 40_000..<46_000) / level(flat, 40_000..<46_000)
    #expect(abs(after - 0.501) < 0.01, "after the preset: \(after) of the flat level")
  }

  /// A packaged instrument, Debian's synthv1 (`synthv1-lv2`; it has a worker and audio inputs,
  /// which hear silence): a note from the app's MIDI sounds from its frame, on both channels.
  @Test func synthv1PlaysTheAppsMIDI() throws {
    let app = try Self.instrument("http://synthv1.sourceforge.net/lv2")
    let (left, right) = try Self.play(app, frames: 48_000, note: 57, from: 10_000, to: 30_000)
    #expect(left[..<10_000].allSatisfy { $0 == 0 }, "silent before the note")
    let onset = try #require(left.firstIndex { abs($0) > 0 })
    #expect((10_000..<10_128).contains(onset), "the note starts at its frame: \(onset)")
    #expect(left[12_000..<30_000].contains { abs($0) > 1_000 })
    #expect(right[12_000..<30_000].contains { abs($0) > 1_000 })
    // Its 145 parameters are the state (its default patch: detuned oscillators through a
    // filter, whose pitch zero crossings do not tell; the tone fixture's test checks pitch).
    guard case .record(let fields) = try app.state("synth") else {
      Issue.record("its state is not a record")
      return
    }
    #expect(fields.count == 145)
  }

  /// An app of LV2 features alone loads nothing else, so it needs no `[plugins]`.
  @Test func anAppOfLV2FeaturesAloneNeedsNoPluginsTable() throws {
    let app = try makeApp(
      toml: """
        [app]
        root = "eq"
        [[feature]]
        key = "eq"
        lv2 = "\(Self.eq)"
        """)
    try app.send("eq", "set(port: \"gain\", value: 3)")
    #expect(try app.state("eq")[field: "gain"] == .double(3))
  }

  @Test func aPluginThatIsNotInstalledOrNotHostableIsOneLineNamingTheFeature() throws {
    #expect {
      _ = try Self.app("http://example.org/not-installed")
    } throws: { error in
      let text = "\(error)"
      return text.contains("test.toml:13: feature \"effect\".lv2: ")
        && text.contains("not-installed")
        && text.contains("patchbay lv2 list")
    }
    #expect {
      _ = try Self.app(Self.eq, extra: "id = \"dev.patchbay.synth\"")
    } throws: { error in "\(error)".contains("not both") }
  }
}
