import Synchronization

/// A single-producer, single-consumer ring of trivially copyable elements: audio frames
/// (`SPSCRing<Float>`), or events (`SPSCRing<MIDIEvent>`) between a realtime thread and the
/// app. Lock-free and allocation-free after `init`; one thread writes, one other thread reads.
///
/// ```swift
/// let ring = SPSCRing<Float>(minimumCapacity: 4096)   // capacity 4096
/// // producer thread
/// let written = samples.withUnsafeBufferPointer { ring.write($0) }
/// // consumer thread (the audio thread)
/// let read = block.withUnsafeMutableBufferPointer { ring.read(into: $0) }
/// ```
///
/// The design (DESIGN §8): capacity a power of two; indices count up forever (an `Int` does not
/// wrap in this universe's lifetime) and are masked on use; the write index and the producer's
/// copy of the read index share one cache line, the read index and the consumer's copy of the
/// write index another, so each side mostly reads its own line and refreshes its copy of the
/// other side's index only when the ring looks full (or empty); acquire/release ordering only;
/// block copies are `memcpy`s of at most two segments. The zero-copy regions
/// (``writableRegions()`` / ``commitWrite(_:)``, ``readableRegions()`` / ``commitRead(_:)``)
/// let a side work in the ring's memory directly.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
  /// How many elements fit.
  public let capacity: Int
  @usableFromInline let mask: Int
  @usableFromInline let storage: UnsafeMutablePointer<Element>
  /// Four cache lines: [write index, producer's copy of the read index] [ ] [read index,
  /// consumer's copy of the write index] [ ] — a spare line between, against adjacent-line
  /// prefetch.
  @usableFromInline let control: UnsafeMutableRawPointer

  @usableFromInline static var lineSize: Int { 64 }

  /// A ring holding at least `minimumCapacity` elements (rounded up to a power of two).
  public init(minimumCapacity: Int) {
    precondition(minimumCapacity > 0, "a ring holds at least one element")
    var capacity = 1
    while capacity < minimumCapacity { capacity <<= 1 }
    self.capacity = capacity
    self.mask = capacity - 1
    // Cache-line aligned, so blocks of a multiple of 64 bytes never share a line.
    self.storage = UnsafeMutableRawPointer.allocate(
      byteCount: capacity * MemoryLayout<Element>.stride, alignment: max(Self.lineSize, MemoryLayout<Element>.alignment)
    ).bindMemory(to: Element.self, capacity: capacity)
    self.control = .allocate(byteCount: 4 * Self.lineSize, alignment: Self.lineSize)
    self.control.initializeMemory(as: UInt8.self, repeating: 0, count: 4 * Self.lineSize)
    (self.control).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
    (self.control + 2 * Self.lineSize).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
  }

  deinit {
    self.storage.deallocate()
    self.control.deallocate()
  }

  @inlinable var writeIndex: UnsafeMutablePointer<Atomic<Int>> {
    self.control.assumingMemoryBound(to: Atomic<Int>.self)
  }
  @inlinable var cachedReadIndex: UnsafeMutablePointer<Int> {
    (self.control + MemoryLayout<Int>.stride).assumingMemoryBound(to: Int.self)
  }
  @inlinable var readIndex: UnsafeMutablePointer<Atomic<Int>> {
    (self.control + 2 * Self.lineSize).assumingMemoryBound(to: Atomic<Int>.self)
  }
  @inlinable var cachedWriteIndex: UnsafeMutablePointer<Int> {
    (self.control + 2 * Self.lineSize + MemoryLayout<Int>.stride).assumingMemoryBound(to: Int.self)
  }

  // MARK: - Producer side

  /// How many elements the producer can write now. [producer]
  @inlinable public var availableToWrite: Int {
    self.capacity - (self.writeIndex.pointee.load(ordering: .relaxed) - self.readIndex.pointee.load(ordering: .acquiring))
  }

  /// Free space for the producer, refreshing its copy of the read index only when `needed`
  /// does not fit in what it last saw.
  @inlinable func freeSpace(at write: Int, needed: Int) -> Int {
    var free = self.capacity - (write - self.cachedReadIndex.pointee)
    if free < needed {
      self.cachedReadIndex.pointee = self.readIndex.pointee.load(ordering: .acquiring)
      free = self.capacity - (write - self.cachedReadIndex.pointee)
    }
    return free
  }

  /// Copies as many of `elements` as fit; returns how many. [producer]
  @inlinable @discardableResult
  public func write(_ elements: UnsafeBufferPointer<Element>) -> Int {
    guard let source = elements.baseAddress else { return 0 }
    let write = self.writeIndex.pointee.load(ordering: .relaxed)
    let count = min(elements.count, self.freeSpace(at: write, needed: elements.count))
    guard count > 0 else { return 0 }
    let start = write & self.mask
    let first = min(count, self.capacity - start)
    (self.storage + start).initialize(from: source, count: first)
    if first < count { self.storage.initialize(from: source + first, count: count - first) }
    self.writeIndex.pointee.store(write + count, ordering: .releasing)
    return count
  }

  /// Appends one element; false when the ring is full. [producer]
  @inlinable @discardableResult
  public func push(_ element: Element) -> Bool {
    let write = self.writeIndex.pointee.load(ordering: .relaxed)
    guard self.freeSpace(at: write, needed: 1) > 0 else { return false }
    (self.storage + (write & self.mask)).initialize(to: element)
    self.writeIndex.pointee.store(write + 1, ordering: .releasing)
    return true
  }

  /// The free space as up to two regions of the ring's own memory, in order: write into them,
  /// then ``commitWrite(_:)`` how many elements you wrote. [producer]
  @inlinable
  public func writableRegions() -> (UnsafeMutableBufferPointer<Element>, UnsafeMutableBufferPointer<Element>) {
    let write = self.writeIndex.pointee.load(ordering: .relaxed)
    let free = self.freeSpace(at: write, needed: self.capacity)
    let start = write & self.mask
    let first = min(free, self.capacity - start)
    return (
      UnsafeMutableBufferPointer(start: self.storage + start, count: first),
      UnsafeMutableBufferPointer(start: self.storage, count: free - first)
    )
  }

  /// Publishes `count` elements written into ``writableRegions()``. [producer]
  @inlinable public func commitWrite(_ count: Int) {
    let write = self.writeIndex.pointee.load(ordering: .relaxed)
    precondition(count >= 0 && count <= self.capacity - (write - self.cachedReadIndex.pointee), "committed more than the free space")
    self.writeIndex.pointee.store(write + count, ordering: .releasing)
  }

  // MARK: - Consumer side

  /// How many elements the consumer can read now. [consumer]
  @inlinable public var availableToRead: Int {
    self.writeIndex.pointee.load(ordering: .acquiring) - self.readIndex.pointee.load(ordering: .relaxed)
  }

  /// Elements ready for the consumer, refreshing its copy of the write index only when
  /// `needed` is more than it last saw.
  @inlinable func readySpace(at read: Int, needed: Int) -> Int {
    var ready = self.cachedWriteIndex.pointee - read
    if ready < needed {
      self.cachedWriteIndex.pointee = self.writeIndex.pointee.load(ordering: .acquiring)
      ready = self.cachedWriteIndex.pointee - read
    }
    return ready
  }

  /// Copies up to `destination.count` elements out; returns how many. [consumer]
  @inlinable @discardableResult
  public func read(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
    guard let target = destination.baseAddress else { return 0 }
    let read = self.readIndex.pointee.load(ordering: .relaxed)
    let count = min(destination.count, self.readySpace(at: read, needed: destination.count))
    guard count > 0 else { return 0 }
    let start = read & self.mask
    let first = min(count, self.capacity - start)
    target.update(from: self.storage + start, count: first)
    if first < count { (target + first).update(from: self.storage, count: count - first) }
    self.readIndex.pointee.store(read + count, ordering: .releasing)
    return count
  }

  /// Takes the oldest element; nil when the ring is empty. [consumer]
  @inlinable public func pop() -> Element? {
    let read = self.readIndex.pointee.load(ordering: .relaxed)
    guard self.readySpace(at: read, needed: 1) > 0 else { return nil }
    let element = self.storage[read & self.mask]
    self.readIndex.pointee.store(read + 1, ordering: .releasing)
    return element
  }

  /// The ready elements as up to two regions of the ring's memory, oldest first: read them,
  /// then ``commitRead(_:)`` how many you consumed. [consumer]
  @inlinable
  public func readableRegions() -> (UnsafeBufferPointer<Element>, UnsafeBufferPointer<Element>) {
    let read = self.readIndex.pointee.load(ordering: .relaxed)
    let ready = self.readySpace(at: read, needed: self.capacity)
    let start = read & self.mask
    let first = min(ready, self.capacity - start)
    return (
      UnsafeBufferPointer(start: self.storage + start, count: first),
      UnsafeBufferPointer(start: self.storage, count: ready - first)
    )
  }

  /// Releases `count` elements read from ``readableRegions()``. [consumer]
  @inlinable public func commitRead(_ count: Int) {
    let read = self.readIndex.pointee.load(ordering: .relaxed)
    precondition(count >= 0 && count <= self.cachedWriteIndex.pointee - read, "released more than was ready")
    self.readIndex.pointee.store(read + count, ordering: .releasing)
  }
}
