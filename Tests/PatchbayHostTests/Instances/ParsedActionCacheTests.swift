import Testing

@testable import PatchbayHost

@Suite struct ParsedActionCacheTests {
  @Test func findsTheLastTextAndEveryOtherOne() {
    var cache = ParsedActionCache()
    #expect(cache.bytes(for: "increment") == nil)
    cache.insert([1], for: "increment")
    cache.insert([2], for: "decrement")
    #expect(cache.bytes(for: "decrement") == [2])  // the last one
    #expect(cache.bytes(for: "increment") == [1])  // from the table; now the last
    #expect(cache.bytes(for: "increment") == [1])
    #expect(cache.bytes(for: "decrement") == [2])
    #expect(cache.bytes(for: "reset") == nil)
  }

  @Test func aTextThatOnlyStartsLikeTheLastIsAnother() {
    var cache = ParsedActionCache()
    cache.insert([1], for: "setStep(by: 1)")
    #expect(cache.bytes(for: "setStep(by: 10)") == nil)
    #expect(cache.bytes(for: "setStep(by: 1)") == [1])
  }

  @Test func startsAgainPastItsCapacity() {
    var cache = ParsedActionCache()
    for index in 0..<ParsedActionCache.capacity {
      cache.insert([UInt8(index % 256)], for: "a\(index)")
    }
    #expect(cache.count == ParsedActionCache.capacity)
    cache.insert([9], for: "one more")
    #expect(cache.count == 1)
    #expect(cache.bytes(for: "a0") == nil)
    #expect(cache.bytes(for: "one more") == [9])
  }

  @Test func removeAllForgetsTheLastTextToo() {
    var cache = ParsedActionCache()
    cache.insert([1], for: "increment")
    cache.removeAll()
    #expect(cache.bytes(for: "increment") == nil)
  }
}
