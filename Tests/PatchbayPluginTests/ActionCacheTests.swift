import Testing

@testable import PatchbayPlugin

/// Each instance's cache of decoded actions: no memory until its first action, then a few
/// slots, found again by the same bytes only.
@Suite struct ActionCacheTests {
  func withBytes<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> R) -> R {
    bytes.withUnsafeBytes(body)
  }

  @Test func anInstanceNeverSentAnActionHoldsNoSlots() {
    let cache = ActionCache<String>()
    #expect(cache.isEmpty)
    #expect(self.withBytes([1, 2, 3]) { cache.action(for: $0) } == nil)
    #expect(cache.isEmpty)  // asking stores nothing
  }

  @Test func aStoredActionIsFoundByItsBytesOnly() {
    var cache = ActionCache<String>()
    self.withBytes([1, 2, 3]) { cache.store("increment", for: $0) }
    #expect(cache.keys.count == ActionCache<String>.slotCount)
    #expect(self.withBytes([1, 2, 3]) { cache.action(for: $0) } == "increment")
    #expect(self.withBytes([1, 2, 4]) { cache.action(for: $0) } == nil)
    #expect(self.withBytes([1, 2]) { cache.action(for: $0) } == nil)
  }

  /// Bytes of 8 to 16 are compared as two overlapping words, longer ones in the middle too: a
  /// difference in any byte, the ones both words hold too, is still a different action.
  @Test func actionsOfOneLengthThatDifferInAnyByteAreNotConfused() {
    for count in [1, 7, 8, 9, 12, 16, 17, 40] {
      let stored = (0..<count).map { UInt8($0 + 1) }
      var cache = ActionCache<String>()
      self.withBytes(stored) { cache.store("stored", for: $0) }
      #expect(self.withBytes(stored) { cache.action(for: $0) } == "stored", "\(count) bytes")
      for index in 0..<count {
        var other = stored
        other[index] ^= 0x80
        #expect(
          self.withBytes(other) { cache.action(for: $0) } == nil, "byte \(index) of \(count)")
      }
    }
  }

  @Test func anActionOverTheSizeLimitIsNotKept() {
    var cache = ActionCache<String>()
    let large = [UInt8](repeating: 7, count: ActionCache<String>.maximumSize + 1)
    self.withBytes(large) { cache.store("large", for: $0) }
    #expect(cache.isEmpty)
    #expect(self.withBytes(large) { cache.action(for: $0) } == nil)
  }

  /// The slot mixes the key's words: a difference anywhere in them, a word's high bytes too,
  /// still spreads actions over the slots (a tag's last byte differs between two actions'
  /// bytes as often as any).
  @Test func actionsThatDifferInAWordsHighByteSpreadOverTheSlots() {
    let slots = Set(
      (0..<64).map { last -> Int in
        self.withBytes([1, 2, 3, 4, 5, 6, 7, UInt8(last), 9, 10]) {
          ActionCache<String>.slot(ActionCache<String>.Key($0))
        }
      })
    #expect(slots.count >= ActionCache<String>.slotCount / 2)
    // And the same bytes always give the same slot.
    let bytes: [UInt8] = Array("increment".utf8)
    let slot = { (bytes: UnsafeRawBufferPointer) in
      ActionCache<String>.slot(ActionCache<String>.Key(bytes))
    }
    #expect(self.withBytes(bytes, slot) == self.withBytes(Array(bytes), slot))
  }
}
