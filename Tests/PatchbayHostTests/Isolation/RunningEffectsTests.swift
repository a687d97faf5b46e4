import Testing

@testable import PatchbayIsolation

/// What the host keeps to start an isolated instance's effects again after a crash
/// (RunningEffects.swift), from the `effect_origins` bytes a plugin writes.
@Suite struct RunningEffectsTests {
  /// `effect_origins` bytes: the last call's number, then each action with its effects.
  static func origins(last: UInt64, _ running: [(UInt64, [UInt32])]) -> [UInt8] {
    var bytes: [UInt8] = []
    func put<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    put(last)
    put(UInt32(running.count))
    for (action, effects) in running {
      put(action)
      put(UInt32(effects.count))
      for effect in effects { put(effect) }
    }
    return bytes
  }

  @Test func anActionWhoseEffectsRunIsKeptWithItsStateUntilTheyEnd() {
    var running = RunningEffects()
    running.update(Self.origins(last: 1, [(1, [1])]), reduced: [0xA], on: [0x51])
    #expect(running.origins == [.init(number: 1, state: [0x51], action: [0xA], effects: [1])])

    // A later action that starts nothing keeps it; one that ends it drops it.
    running.update(Self.origins(last: 2, [(1, [1])]), reduced: [0xB], on: [0x52])
    #expect(running.origins.map(\.number) == [1])
    running.update(Self.origins(last: 3, []), reduced: [0xC], on: [0x53])
    #expect(running.origins.isEmpty)
    #expect(running.isKnown)
  }

  @Test func aRestartFilesTheActionAgainUnderItsNewNumber() {
    var running = RunningEffects()
    running.update(Self.origins(last: 7, [(7, [0, 2])]), reduced: [0xA], on: [0x51])
    let taken = running.takeForRestart()
    #expect(running.origins.isEmpty)
    // The new process numbers its calls afresh: the restart is its call 1, and effect 0 ended.
    running.update(Self.origins(last: 1, [(1, [2])]), reduced: taken[0].action, on: taken[0].state)
    #expect(running.origins == [.init(number: 1, state: [0x51], action: [0xA], effects: [2])])
  }

  @Test(
    arguments: [
      [],  // nothing
      [1, 2, 3],  // shorter than the header
      Array(origins(last: 1, [(1, [0])]).dropLast(2)),  // cut short
      Array(origins(last: 1, []).dropLast(4)) + [0xFF, 0xFF, 0xFF, 0xFF],  // a count past the end
    ] as [[UInt8]])
  func bytesThatDoNotParseKeepNothingAndSaySo(_ bytes: [UInt8]) {
    var running = RunningEffects()
    running.update(Self.origins(last: 1, [(1, [0])]), reduced: [0xA], on: [0x51])
    running.update(bytes, reduced: [0xB], on: [0x52])
    #expect(running.origins.isEmpty)
    #expect(running.isKnown == false)  // the crash is then logged as ending its effects
  }

  @Test func aPluginWithoutEffectOriginsKeepsNothing() {
    var running = RunningEffects()
    running.update(nil, reduced: [0xA], on: [0x51])
    #expect(running.isKnown == false)
    #expect(running.hasReduced)
  }
}
