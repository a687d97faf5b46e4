import Synchronization

/// The newest value one thread wrote, read by one other thread without a lock, a wait or a copy on
/// either side: three blocks of raw bytes that the writer and the reader trade
/// (docs/ARCHITECTURE.md, "Audio and MIDI").
///
/// ```swift
/// let parameters = TripleBuffer(byteCount: 16)
/// // writer (the app queue, after each action)
/// parameters.write { block in block.storeBytes(of: 140.0, as: Double.self) }
/// // reader (the audio thread, at the start of a period)
/// let tempo = parameters.read().load(as: Double.self)  // 140.0: the newest complete block
/// ```
///
/// The writer always fills the block no one reads, then swaps it for the middle one and marks
/// it fresh. The reader swaps the middle block for its own only when it is fresh, so it sees
/// each complete block once it is published, and never a block being written. Blocks are
/// zeroed at first and 64-byte aligned, so any plain struct loads from them.
public final class TripleBuffer: @unchecked Sendable {
  /// Bytes in each block.
  public let byteCount: Int
  private let blocks: UnsafeMutableRawPointer
  private let stride: Int
  /// The middle block's index (bits 0–1) and whether it is fresh (bit 2).
  private let middle = Atomic<UInt8>(1)
  /// The writer's block. [writer]
  private var back: UInt8 = 0
  /// The reader's block. [reader]
  private var front: UInt8 = 2

  private static let fresh: UInt8 = 4

  public init(byteCount: Int) {
    precondition(byteCount > 0, "a triple buffer's blocks hold at least one byte")
    self.byteCount = byteCount
    self.stride = (byteCount + 63) / 64 * 64
    self.blocks = .allocate(byteCount: 3 * self.stride, alignment: 64)
    self.blocks.initializeMemory(as: UInt8.self, repeating: 0, count: 3 * self.stride)
  }

  deinit {
    self.blocks.deallocate()
  }

  /// Fills the writer's block (zeroed first) and publishes it. [writer]
  public func write(_ fill: (UnsafeMutableRawPointer) -> Void) {
    let block = self.blocks + Int(self.back) * self.stride
    block.initializeMemory(as: UInt8.self, repeating: 0, count: self.byteCount)
    fill(block)
    let previous = self.middle.exchange(self.back | Self.fresh, ordering: .acquiringAndReleasing)
    self.back = previous & 3
  }

  /// The newest published block (all zeros before the first write). Valid until the next
  /// `read`. [reader; realtime-safe]
  @inline(__always)
  public func read() -> UnsafeRawPointer {
    if self.middle.load(ordering: .relaxed) & Self.fresh != 0 {
      let previous = self.middle.exchange(self.front, ordering: .acquiringAndReleasing)
      self.front = previous & 3
    }
    return UnsafeRawPointer(self.blocks + Int(self.front) * self.stride)
  }
}
