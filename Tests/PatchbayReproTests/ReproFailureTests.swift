import Testing

@testable import PatchbayRepro

/// Each report the host writes names a failure repro compares by kind, feature and call.
@Suite struct ReproFailureTests {
  @Test(arguments: [
    (
      "patchbay: a plugin crashed the app with SIGSEGV (invalid memory access) in its reduce: "
        + "feature dev.patchbay.x (/p/libX.so), instance a, action go. The app stopped: …",
      ReproFailure(kind: "SIGSEGV", feature: "dev.patchbay.x", call: "reduce")
    ),
    (
      "patchbay: a plugin call did not return within 1 s: in its reduce: feature "
        + "dev.patchbay.fixture-hostile (/p/libH.so), instance first, action hang. The app …",
      ReproFailure(kind: "hang", feature: "dev.patchbay.fixture-hostile", call: "reduce")
    ),
    (
      "patchbay: a plugin call did not return within 48 periods (0.128 s): in its process: "
        + "feature dev.patchbay.synth (/p/libSynth.so), instance synth. The app stopped: …",
      ReproFailure(kind: "hang", feature: "dev.patchbay.synth", call: "process")
    ),
    (
      "dev.patchbay.counter: reduce failed: dev.patchbay.counter: cannot decode action: byte 0",
      ReproFailure(kind: "refused", feature: "dev.patchbay.counter", call: "reduce")
    ),
    (
      "patchbay: counter: dev.patchbay.counter: reduce failed: dev.patchbay.counter: unknown",
      ReproFailure(kind: "refused", feature: "dev.patchbay.counter", call: "reduce")
    ),
    (
      "dev.patchbay.fixture.ticker: reduce failed: dev.patchbay.fixture.ticker-plugin hung: its "
        + "reduce did not return within 5 s ([limits] call-seconds)",
      ReproFailure(kind: "hang", feature: "dev.patchbay.fixture.ticker", call: "reduce")
    ),
    (
      "dev.patchbay.synth: error: synth: its processor wrote NaN or infinite samples in period 412",
      ReproFailure(kind: "nan", feature: "dev.patchbay.synth", call: "process")
    ),
    (
      "patchbay: dev.patchbay.fixture.lock: lock: its processor wrote NaN or infinite samples in",
      ReproFailure(kind: "nan", feature: "dev.patchbay.fixture.lock", call: "process")
    ),
  ])
  func aReportNamesItsFailure(_ line: String, _ failure: ReproFailure) {
    #expect(ReproFailure(report: line) == failure)
  }

  @Test func otherLinesNameNone() {
    #expect(ReproFailure(report: "state hash: 9f2c") == nil)
    #expect(ReproFailure(report: "patchbay: a plugin crashed the app with SIGSEGV") == nil)
  }

  @Test func itSaysWhatItIs() {
    #expect(
      ReproFailure(kind: "hang", feature: "dev.patchbay.x", call: "reduce").description
        == "a hang in dev.patchbay.x's reduce")
    #expect(
      ReproFailure(kind: "SIGSEGV", feature: "f", call: "render").description
        == "SIGSEGV in f's render")
  }
}
