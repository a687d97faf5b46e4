/// Decoded actions by their bytes, so a feature decodes each distinct action once.
///
/// Decoding goes through `Codable` and the Swift runtime's dynamic casts, which cost
/// microseconds; hosts send the same few actions over and over (`increment`, `tick`, a MIDI
/// note). Decoding is a pure function of the bytes, so caching changes nothing but speed.
/// Direct-mapped: a slot per hash bucket, replaced on collision; only small actions are kept.
/// Every instance has one, so it is small and made at the first action: a row of 100,000 that
/// is never sent an action holds no slot (docs/BENCHMARKS.md, "Growth").
@usableFromInline
struct ActionCache<Action> {
  /// What a lookup compares first: the length and the first and last eight bytes (fewer than
  /// eight: all of them, in `head`). Plain words, so finding an action reads no array's
  /// storage and retains nothing; for 16 bytes or fewer (most actions: a tag and a short
  /// name) it is the whole comparison.
  @usableFromInline
  struct Key: Equatable {
    @usableFromInline var count: Int
    @usableFromInline var head: UInt64
    @usableFromInline var tail: UInt64

    /// No action's: a slot that holds nothing.
    @inlinable static var empty: Key { Key(count: -1, head: 0, tail: 0) }

    @inlinable init(count: Int, head: UInt64, tail: UInt64) {
      (self.count, self.head, self.tail) = (count, head, tail)
    }

    @inlinable @inline(__always) init(_ bytes: UnsafeRawBufferPointer) {
      let count = bytes.count
      guard count >= 8 else {
        var head: UInt64 = 0
        for index in 0..<count { head |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        self.init(count: count, head: head, tail: 0)
        return
      }
      self.init(
        count: count, head: bytes.loadUnaligned(as: UInt64.self),
        tail: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }
  }

  @inlinable static var slotCount: Int { 16 }
  @inlinable static var maximumSize: Int { 128 }

  /// Empty until the first action is stored, then `slotCount` of each: the slots' keys, their
  /// actions, and (once one is stored) the bytes of those over 16 long, for the middle that
  /// the key leaves out.
  @usableFromInline var keys: [Key] = []
  @usableFromInline var actions: [Action?] = []
  @usableFromInline var longBytes: [[UInt8]] = []

  @inlinable init() {}

  /// Whether the cache holds no slots yet (an instance never sent an action).
  @inlinable var isEmpty: Bool { self.keys.isEmpty }

  /// The cached action for `bytes`, if any.
  @inlinable @inline(__always)
  func action(for bytes: UnsafeRawBufferPointer) -> Action? {
    guard bytes.count <= Self.maximumSize, !self.keys.isEmpty else { return nil }
    let key = Key(bytes)
    let slot = Self.slot(key)
    guard self.keys[slot] == key else { return nil }
    if bytes.count > 16 {
      let same = self.longBytes[slot].withUnsafeBytes {
        memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
      }
      guard same else { return nil }
    }
    return self.actions[slot]
  }

  /// Remembers `action` as the decoding of `bytes`.
  @inlinable
  mutating func store(_ action: Action, for bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= Self.maximumSize else { return }
    if self.keys.isEmpty {
      self.keys = Array(repeating: .empty, count: Self.slotCount)
      self.actions = Array(repeating: nil, count: Self.slotCount)
    }
    let key = Key(bytes)
    let slot = Self.slot(key)
    self.keys[slot] = key
    self.actions[slot] = action
    if bytes.count > 16 {
      if self.longBytes.isEmpty { self.longBytes = Array(repeating: [], count: Self.slotCount) }
      self.longBytes[slot] = Array(bytes)
    } else if !self.longBytes.isEmpty {
      self.longBytes[slot] = []
    }
  }

  /// The slot of `key`: its three words mixed by two multiplies and a shift, and the
  /// product's top bits (which depend on every bit of its factors; the low bits only on
  /// theirs). The key holds
  /// all of an action up to 16 bytes and the two ends of a longer one, so the slot needs no
  /// pass over the bytes: hashing them, eight at a time, was a tenth of a send through the C
  /// ABI. Longer actions that differ only in their middle share a slot, and replace each other.
  ///
  /// ```swift
  /// ActionCache<Counter.Action>.slot(ActionCache.Key(bytes))   // 0..<16, the same for the same bytes
  /// ```
  @inlinable @inline(__always)
  static func slot(_ key: Key) -> Int {
    let words =
      key.head ^ (key.tail &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: key.count)
    let mixed = (words ^ (words >> 29)) &* 0xBF58_476D_1CE4_E5B9
    return Int(mixed >> UInt64(64 - Self.slotCount.trailingZeroBitCount))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
