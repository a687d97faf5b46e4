import Foundation
import PatchbayLV2
import Testing

/// The state extension's own data, with Debian's x42 EQ (fil4 keeps its analyser's settings
/// and keyboard tuning beyond its ports): saved as Turtle, restored into another instance.
struct LV2StateTests {
  static let eq = "http://gareus.org/oss/lv2/fil4#stereo"

  @Test func whatOneInstanceSavesAnotherRestores() throws {
    let info = try LV2World.shared.plugin(uri: Self.eq)
    let first = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    let saved = try #require(first.savedState())
    #expect(saved.contains("<http://gareus.org/oss/lv2/fil4#kbtuning> \"440.0\"^^xsd:float"))
    let retuned = saved.replacingOccurrences(
      of: "#kbtuning> \"440.0\"", with: "#kbtuning> \"432.0\"")
    let second = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    try second.restoreState(retuned)
    #expect(try #require(second.savedState()).contains("#kbtuning> \"432.0\"^^xsd:float"))
  }

  @Test func aPluginWithoutTheExtensionSavesNothingAndBadTextIsOneLine() throws {
    let compressor = try LV2Instance(
      LV2World.shared.plugin(uri: "http://gareus.org/oss/lv2/darc#stereo"), sampleRate: 48_000,
      maximumFrames: 128)
    #expect(compressor.savedState() == nil)
    #expect {
      try LV2Instance.checkState("not turtle {", of: Self.eq)
    } throws: { "\($0)".contains("its saved state is not LV2 state lilv can read") }
  }
}
