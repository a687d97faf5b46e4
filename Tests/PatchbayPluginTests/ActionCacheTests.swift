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
    #expect(cache.slots.isEmpty)
    #expect(self.withBytes([1, 2, 3]) { cache.action(for: $0) } == nil)
    #expect(cache.slots.isEmpty)  // asking stores nothing
  }

  @Test func aStoredActionIsFoundByItsBytesOnly() {
    var cache = ActionCache<String>()
    self.withBytes([1, 2, 3]) { cache.store("increment", for: $0) }
    #expect(cache.slots.count == ActionCache<String>.slotCount)
    #expect(self.withBytes([1, 2, 3]) { cache.action(for: $0) } == "increment")
    #expect(self.withBytes([1, 2, 4]) { cache.action(for: $0) } == nil)
    #expect(self.withBytes([1, 2]) { cache.action(for: $0) } == nil)
  }

  @Test func anActionOverTheSizeLimitIsNotKept() {
    var cache = ActionCache<String>()
    let large = [UInt8](repeating: 7, count: ActionCache<String>.maximumSize + 1)
    self.withBytes(large) { cache.store("large", for: $0) }
    #expect(cache.slots.isEmpty)
    #expect(self.withBytes(large) { cache.action(for: $0) } == nil)
  }
}
