import Foundation
import PatchbayFuzzTargets
import Testing

/// Every input the fuzzers kept (`Tests/Fuzz/Corpus/<target>/`), seeds and findings alike,
/// through its target's checks: a parser that regresses on one fails here, without libFuzzer.
@Suite struct CorpusReplayTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/Corpus")

  static func inputs(of target: FuzzTarget) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(
      at: corpus.appendingPathComponent(target.rawValue), includingPropertiesForKeys: nil)
  }

  @Test(arguments: FuzzTarget.allCases)
  func corpusHolds(_ target: FuzzTarget) throws {
    let inputs = try Self.inputs(of: target)
    #expect(inputs.contains { $0.lastPathComponent.hasPrefix("seed-") })
    var failures: [String] = []
    for url in inputs {
      do {
        try target.check([UInt8](try Data(contentsOf: url)))
      } catch {
        failures.append("\(url.lastPathComponent): \(error)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(inputs.count) inputs: \(failures.prefix(5))")
  }
}
