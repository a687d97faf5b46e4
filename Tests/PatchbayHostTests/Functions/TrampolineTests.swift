import Foundation
import PatchbayEncoding
import Synchronization
import Testing

@testable import PatchbayFunctions
@testable import PatchbayHost

/// Stable pointers to other plugins' functions: retargeted by swaps, safe after the app.
@Suite(.serialized) struct TrampolineTests {
  typealias Frequency = @convention(c) (Int32, Double) -> Double

  /// A studio app whose Theory is a copy in a folder of its own, to rebuild (touch).
  func app(copying folder: URL) throws -> (AppRuntime, String) {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("libTheory.so").path
    try BuiltPlugins.copy("Theory", to: copy)
    return (try makeApp("trio"), copy)
  }

  /// 100 swaps of Theory to rebuilt copies while a thread calls interval_name through the
  /// resolved pointer without pause: every call returns the right answer (none reaches a
  /// stale or half-written target), and the pointer never changes. Both trampoline kinds.
  @Test(arguments: StableTrampoline.Kind.allCases)
  func retargetsAcross100SwapsUnderCalls(kind: StableTrampoline.Kind) throws {
    typealias IntervalName = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (app, copy) = try self.app(copying: folder)
    app.perform { app.functions.kind = kind }
    // Not one the Tuner imported: this test makes its trampoline.
    let pointer = try app.functionResolver(
      "dev.patchbay.theory-plugin", "interval_name", "int32(int32, out_string)")
    let trampoline = try #require(app.perform { app.functions.entries.last?.trampoline })
    #expect(trampoline.kind == kind)
    let intervalName = unsafeBitCast(pointer, to: IntervalName.self)
    let names = [
      "unison", "minor second", "major second", "minor third", "major third", "perfect fourth",
      "tritone", "perfect fifth", "minor sixth", "major sixth", "minor seventh", "major seventh",
      "octave",
    ]
    let calls = Atomic<Int>(0)
    let wrong = Atomic<Int>(0)
    let running = Atomic<Bool>(true)
    let caller = Thread {
      var buffer = [CChar](repeating: 0, count: 64)
      var semitones: Int32 = 0
      while running.load(ordering: .relaxed) {
        _ = intervalName(semitones, &buffer, buffer.count)
        if text(buffer) != names[Int(semitones)] { wrong.add(1, ordering: .relaxed) }
        calls.add(1, ordering: .relaxed)
        semitones = (semitones + 1) % 13
      }
    }
    caller.start()
    var targets: Set<Int> = []
    for index in 0..<100 {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))],
        ofItemAtPath: copy)
      let report = try app.swap("Theory", to: copy)
      #expect(report.generation == index + 1)
      targets.insert(Int(bitPattern: trampoline.target))
    }
    // The caller called through the swaps; a loaded machine may have run it little, so it
    // runs until it has made more calls than there were swaps (a bound stops a hang only).
    let deadline = ContinuousClock.now + .seconds(300)
    while calls.load(ordering: .relaxed) <= 100, ContinuousClock.now < deadline { usleep(1_000) }
    running.store(false, ordering: .relaxed)
    while !caller.isFinished { usleep(1_000) }
    #expect(targets.count == 100)  // each swap moved it to its generation's code
    #expect(calls.load(ordering: .relaxed) > 100)
    #expect(wrong.load(ordering: .relaxed) == 0)
    // The same pointer as before, still answering.
    let again = try app.functionResolver(
      "dev.patchbay.theory-plugin", "interval_name", "int32(int32, out_string)")
    #expect(again == pointer)
    var buffer = [CChar](repeating: 0, count: 64)
    _ = intervalName(7, &buffer, buffer.count)
    #expect(text(buffer) == "perfect fifth")
  }

  /// The Tuner (Swift) calls Theory (C) through the host, across a swap of Theory.
  @Test func aSwiftFeatureCallsAnotherPluginsFunctions() throws {
    let app = try makeApp("trio")
    try app.send("metronome/tuner", "setNote(60)")
    #expect(try app.state("metronome/tuner")[field: "name"] == "C4")
    try app.swap("Theory", to: "Theory")  // the same, unchanged file: the same generation
    try app.send("metronome/tuner", "setA4(hertz: 442.0)")
    guard case .double(let frequency) = try app.state("metronome/tuner")[field: "frequency"] else {
      Issue.record("no frequency")
      return
    }
    #expect(abs(frequency - 442 * pow(2, -9.0 / 12)) < 1e-9)
  }

  /// A swap that would take a resolved function away, or change its signature, is refused;
  /// the old code keeps answering.
  @Test func aSwapThatDropsAResolvedFunctionIsRefused() throws {
    let app = try makeApp("trio")  // the Tuner resolved note_frequency and note_name
    let lite = try BuiltPlugins.fixture("theorylite")
    let refusal = errorMessage { try app.swap("Theory", to: lite) }
    #expect(refusal.hasPrefix("swap dev.patchbay.theory-plugin to \(lite) refused:"))
    #expect(refusal.contains("note_frequency: a plugin resolved it as double(int32, double)"))
    try app.send("metronome/tuner", "setNote(69)")
    #expect(try app.state("metronome/tuner")[field: "frequency"] == 440.0)
  }

  /// Once its app is gone, a pointer still held returns zero and the host logs the call: it
  /// never jumps into freed memory.
  @Test func aPointerOutlivingItsAppReturnsZero() throws {
    var app: AppRuntime? = try makeApp("trio")
    let logged = LockedBox<[String]>([])
    app?.onLog { _, _, message in logged.mutate { $0.append(message) } }
    let pointer = try #require(app).functionResolver(
      "dev.patchbay.theory-plugin", "note_frequency", "double(int32, double)")
    let frequency = unsafeBitCast(pointer, to: Frequency.self)
    #expect(frequency(69, 440) == 440)
    app = nil
    #expect(frequency(69, 440) == 0)
    #expect(logged.value.contains { $0.contains("note_frequency was called after its app closed") })
  }

  @Test func resolveRefusalsNameWhatIsWrong() throws {
    let app = try makeApp("trio")
    func refusal(_ provider: String, _ name: String, _ signature: String) -> AppError.Reason? {
      do {
        _ = try app.resolve(provider, name, signature)
        return nil
      } catch {
        return error.reason
      }
    }
    let theory = "dev.patchbay.theory-plugin"
    guard
      case .functionCall(_, let unknown)? = refusal(
        theory, "note_frequncy", "double(int32, double)")
    else {
      Issue.record("an unknown name should be refused")
      return
    }
    #expect(unknown.contains("exports no function 'note_frequncy'. Did you mean 'note_frequency'?"))
    guard case .functionCall(_, let mismatch)? = refusal(theory, "note_frequency", "float(int32)")
    else {
      Issue.record("another signature should be refused")
      return
    }
    #expect(
      mismatch == "is double(int32, double), not float(int32). Resolve it with its signature.")
    guard case .functionCall(_, let missing)? = refusal("dev.example.none", "f", "void()")
    else {
      Issue.record("a provider not loaded should be refused")
      return
    }
    #expect(missing.hasPrefix("no plugin or feature 'dev.example.none' is loaded."))
    guard case .functionCall(_, let syntax)? = refusal(theory, "note_frequency", "double(int32")
    else {
      Issue.record("a bad signature should be refused")
      return
    }
    #expect(
      syntax
        == "the signature 'double(int32' does not parse: column 13: expected ')', found the end.")
  }
}

/// The text a C function wrote into `buffer`, up to its terminating zero.
private func text(_ buffer: [CChar]) -> String {
  buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
