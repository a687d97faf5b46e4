import Foundation
import PatchbayLV2
import Testing

/// Discovery through lilv, against the plugins Debian's x42-plugins installs (make deps).
struct LV2WorldTests {
  static let eq = "http://gareus.org/oss/lv2/fil4#mono"

  @Test func theInstalledPluginsAreListedWithTheirPorts() throws {
    let plugins = LV2World.shared.plugins
    #expect(plugins.contains { $0.uri == Self.eq })
    #expect(plugins.map(\.uri) == plugins.map(\.uri).sorted())
    let eq = try LV2World.shared.plugin(uri: Self.eq)
    #expect(eq.name.contains("Parametric Equalizer"))
    #expect(eq.requiredFeatures == ["http://lv2plug.in/ns/ext/urid#map"])
    #expect(eq.isHardRealtimeCapable)
    let audio = eq.ports.filter { $0.kind == .audio }
    #expect(audio.map(\.isInput) == [true, false])
    let gain = try #require(eq.ports.first { $0.symbol == "gain" })
    #expect(gain.kind == .control && gain.isInput)
    #expect(gain.defaultValue == 0 && gain.minimum == -18 && gain.maximum == 18)
    #expect(eq.ports.contains { $0.kind == .atom })
    #expect(eq.refusal(allowingNonRealtime: false) == nil)
  }

  @Test func anUnknownURIIsOneLineSayingHowToList() {
    #expect(
      throws: LV2Error(
        "no LV2 plugin <http://example.org/nothing> is installed: list them with `patchbay lv2 "
          + "list` (Debian: apt-get install x42-plugins lsp-plugins-lv2; or set LV2_PATH)")
    ) { try LV2World.shared.plugin(uri: "http://example.org/nothing") }
  }

  /// Fixtures (Fixtures/broken.lv2): one needs `state:mapPath`, which Patchbay does not
  /// give; one does not say it is hard-realtime capable.
  @Test func aPluginPatchbayCannotRunIsRefusedInOneLine() throws {
    LV2World.shared.loadBundle(
      URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/broken.lv2").path)
    let needs = try LV2World.shared.plugin(uri: "urn:patchbay:test:needs-map-path")
    #expect(
      needs.refusal(allowingNonRealtime: true)
        == "<urn:patchbay:test:needs-map-path> requires the LV2 feature "
        + "<http://lv2plug.in/ns/ext/state#mapPath>, which Patchbay does not provide (it "
        + "provides urid:map, urid:unmap, options, buf-size:boundedBlockLength and "
        + "worker:schedule)")
    #expect {
      _ = try LV2Instance(needs, sampleRate: 48_000, maximumFrames: 128)
    } throws: { ($0 as? LV2Error)?.description.contains("state#mapPath") == true }
    let slow = try LV2World.shared.plugin(uri: "urn:patchbay:test:not-realtime")
    #expect(
      slow.refusal(allowingNonRealtime: false)
        == "<urn:patchbay:test:not-realtime> does not say it is hard-realtime capable "
        + "(lv2:hardRTCapable), so its run may block the audio thread: Patchbay runs it only "
        + "where that is allowed")
    #expect(slow.refusal(allowingNonRealtime: true) == nil)
  }
}
