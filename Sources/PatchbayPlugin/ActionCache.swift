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
  @usableFromInline
  struct Entry {
    @usableFromInline var bytes: [UInt8]
    @usableFromInline var action: Action

    @inlinable init(bytes: [UInt8], action: Action) {
      self.bytes = bytes
      self.action = action
    }
  }

  @inlinable static var slotCount: Int { 16 }
  @inlinable static var maximumSize: Int { 128 }

  /// Empty until the first action is stored, then `slotCount` slots.
  @usableFromInline var slots: [Entry?] = []

  @inlinable init() {}

  /// The cached action for `bytes`, if any.
  @inlinable
  func action(for bytes: UnsafeRawBufferPointer) -> Action? {
    guard bytes.count <= Self.maximumSize, !self.slots.isEmpty,
      let entry = self.slots[Self.slot(bytes)]
    else {
      return nil
    }
    guard entry.bytes.count == bytes.count else { return nil }
    let equal = entry.bytes.withUnsafeBytes { cached in
      cached.count == 0 || memcmp(cached.baseAddress!, bytes.baseAddress!, bytes.count) == 0
    }
    return equal ? entry.action : nil
  }

  /// Remembers `action` as the decoding of `bytes`.
  @inlinable
  mutating func store(_ action: Action, for bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= Self.maximumSize else { return }
    if self.slots.isEmpty { self.slots = Array(repeating: nil, count: Self.slotCount) }
    self.slots[Self.slot(bytes)] = Entry(bytes: Array(bytes), action: action)
  }

  /// FNV-1a over the bytes eight at a time (the tail byte by byte), folded to a slot. It runs
  /// on every action: byte by byte, it cost a multiply's latency a byte, a sixth of a send
  /// through the C ABI.
  ///
  /// ```swift
  /// ActionCache<Counter.Action>.slot(bytes)   // 0..<16, the same for the same bytes
  /// ```
  @inlinable
  static func slot(_ bytes: UnsafeRawBufferPointer) -> Int {
    let prime: UInt64 = 0x100_0000_01b3
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var offset = 0
    while offset + 8 <= bytes.count {
      hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
      offset += 8
    }
    while offset < bytes.count {
      hash = (hash ^ UInt64(bytes[offset])) &* prime
      offset += 1
    }
    // A product's low bits depend on its factors' low bits only, and the slot is the low
    // bits: mix the high ones down (MurmurHash3's 64-bit finalizer).
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash &*= 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return Int(hash % UInt64(Self.slotCount))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
