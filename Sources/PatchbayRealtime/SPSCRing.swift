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
/// The design (docs/ARCHITECTURE.md, "Audio and MIDI"): capacity a power of two; indices count up
/// forever (an `Int` does not wrap in this universe's lifetime) and are masked on use;
/// acquire/release ordering only; block copies are `memcpy`s of at most two segments. Each index is
/// published on a cache line of its own, and each side keeps its own index and its last-seen copy
/// of the other side's on a private line, so in the steady state a side only *stores* to a shared
/// line (the store buffer absorbs it) and *loads* the other side's line only when its copy says the
/// ring looks full (or empty). The zero-copy regions (``writableRegions()`` / ``commitWrite(_:)``,
/// ``readableRegions()`` / ``commitRead(_:)``) let a side work in the ring's memory directly.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
  /// How many elements fit.
  public let capacity: Int
  @usableFromInline let mask: Int
  @usableFromInline let storage: UnsafeMutablePointer<Element>
  /// Eight cache lines, the odd ones spare (adjacent-line prefetch fetches lines in pairs):
  /// 0 published write index · 2 published read index · 4 the producer's own write index and
  /// copy of the read index · 6 the consumer's own read index and copy of the write index.
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
      byteCount: capacity * MemoryLayout<Element>.stride,
      alignment: max(Self.lineSize, MemoryLayout<Element>.alignment)
    ).bindMemory(to: Element.self, capacity: capacity)
    self.control = .allocate(byteCount: 8 * Self.lineSize, alignment: Self.lineSize)
    self.control.initializeMemory(as: UInt8.self, repeating: 0, count: 8 * Self.lineSize)
    (self.control).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
    (self.control + 2 * Self.lineSize).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(
      to: Atomic(0))
  }

  deinit {
    self.storage.deallocate()
    self.control.deallocate()
  }

  /// The write index as published to the consumer.
  @inlinable var writeIndex: UnsafeMutablePointer<Atomic<Int>> {
    self.control.assumingMemoryBound(to: Atomic<Int>.self)
  }
  /// The read index as published to the producer.
  @inlinable var readIndex: UnsafeMutablePointer<Atomic<Int>> {
    (self.control + 2 * Self.lineSize).assumingMemoryBound(to: Atomic<Int>.self)
  }
  /// The producer's line: its write index, then its copy of the read index. [producer]
  @inlinable var producerLine: UnsafeMutablePointer<Int> {
    (self.control + 4 * Self.lineSize).assumingMemoryBound(to: Int.self)
  }
  /// The consumer's line: its read index, then its copy of the write index. [consumer]
  @inlinable var consumerLine: UnsafeMutablePointer<Int> {
    (self.control + 6 * Self.lineSize).assumingMemoryBound(to: Int.self)
  }

  /// Publishes the producer's write index. [producer]
  @inlinable func publishWrite(_ write: Int) {
    self.producerLine[0] = write
    self.writeIndex.pointee.store(write, ordering: .releasing)
  }

  /// Publishes the consumer's read index. [consumer]
  @inlinable func publishRead(_ read: Int) {
    self.consumerLine[0] = read
    self.readIndex.pointee.store(read, ordering: .releasing)
  }

  /// Copies `count` elements (known to fit) in at write index `write`, as at most two
  /// `memcpy`s split at the end of the storage, then publishes them. [producer]
  @inlinable func copyIn(_ source: UnsafePointer<Element>, count: Int, at write: Int) {
    let start = write & self.mask
    let first = min(count, self.capacity - start)
    (self.storage + start).initialize(from: source, count: first)
    if first < count { self.storage.initialize(from: source + first, count: count - first) }
    self.publishWrite(write + count)
  }

  /// Copies `count` elements (known to be there) out from read index `read`, then releases
  /// them. [consumer]
  @inlinable func copyOut(into target: UnsafeMutablePointer<Element>, count: Int, at read: Int) {
    let start = read & self.mask
    let first = min(count, self.capacity - start)
    target.update(from: self.storage + start, count: first)
    if first < count { (target + first).update(from: self.storage, count: count - first) }
    self.publishRead(read + count)
  }

  // MARK: - Producer side

  /// How many elements the producer can write now (from either thread: a snapshot).
  @inlinable public var availableToWrite: Int {
    self.capacity
      - (self.writeIndex.pointee.load(ordering: .relaxed)
        - self.readIndex.pointee.load(ordering: .acquiring))
  }

  /// Free space for the producer, refreshing its copy of the read index only when `needed`
  /// does not fit in what it last saw.
  @inlinable func freeSpace(at write: Int, needed: Int) -> Int {
    var free = self.capacity - (write - self.producerLine[1])
    if free < needed {
      self.producerLine[1] = self.readIndex.pointee.load(ordering: .acquiring)
      free = self.capacity - (write - self.producerLine[1])
    }
    return free
  }

  /// Copies as many of `elements` as fit; returns how many. [producer]
  @inlinable @discardableResult
  public func write(_ elements: UnsafeBufferPointer<Element>) -> Int {
    guard let source = elements.baseAddress else { return 0 }
    let write = self.producerLine[0]
    let count = min(elements.count, self.freeSpace(at: write, needed: elements.count))
    guard count > 0 else { return 0 }
    self.copyIn(source, count: count, at: write)
    return count
  }

  /// Copies all of `elements`, or nothing when they do not all fit; true when written. The way
  /// to hand over whole blocks: it reads the consumer's index only when its copy says the block
  /// does not fit, so a producer that is behind never touches the consumer's cache line.
  /// [producer]
  ///
  /// ```swift
  /// while !ring.writeAll(block) { /* full: wait, or do other work */ }
  /// ```
  @inlinable
  public func writeAll(_ elements: UnsafeBufferPointer<Element>) -> Bool {
    guard let source = elements.baseAddress else { return true }
    let count = elements.count
    let write = self.producerLine[0]
    guard self.freeSpace(at: write, needed: count) >= count else { return false }
    self.copyIn(source, count: count, at: write)
    return true
  }

  /// Appends one element; false when the ring is full. [producer]
  @inlinable @discardableResult
  public func push(_ element: Element) -> Bool {
    let write = self.producerLine[0]
    guard self.freeSpace(at: write, needed: 1) > 0 else { return false }
    (self.storage + (write & self.mask)).initialize(to: element)
    self.publishWrite(write + 1)
    return true
  }

  /// The free space as up to two regions of the ring's own memory, in order: write into them,
  /// then ``commitWrite(_:)`` how many elements you wrote. [producer]
  @inlinable
  public func writableRegions() -> (
    UnsafeMutableBufferPointer<Element>, UnsafeMutableBufferPointer<Element>
  ) {
    let write = self.producerLine[0]
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
    let write = self.producerLine[0]
    precondition(
      count >= 0 && count <= self.capacity - (write - self.producerLine[1]),
      "committed more than the free space")
    self.publishWrite(write + count)
  }

  // MARK: - Consumer side

  /// How many elements the consumer can read now (from either thread: a snapshot).
  @inlinable public var availableToRead: Int {
    self.writeIndex.pointee.load(ordering: .acquiring)
      - self.readIndex.pointee.load(ordering: .relaxed)
  }

  /// Elements ready for the consumer, refreshing its copy of the write index only when
  /// `needed` is more than it last saw.
  @inlinable func readySpace(at read: Int, needed: Int) -> Int {
    var ready = self.consumerLine[1] - read
    if ready < needed {
      self.consumerLine[1] = self.writeIndex.pointee.load(ordering: .acquiring)
      ready = self.consumerLine[1] - read
    }
    return ready
  }

  /// Copies up to `destination.count` elements out; returns how many. [consumer]
  @inlinable @discardableResult
  public func read(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
    guard let target = destination.baseAddress else { return 0 }
    let read = self.consumerLine[0]
    let count = min(destination.count, self.readySpace(at: read, needed: destination.count))
    guard count > 0 else { return 0 }
    self.copyOut(into: target, count: count, at: read)
    return count
  }

  /// Fills all of `destination`, or reads nothing when fewer elements are ready; true when
  /// filled. Like ``writeAll(_:)``, it reads the producer's index only when its copy says the
  /// block is not there yet. [consumer]
  ///
  /// ```swift
  /// while !ring.readAll(into: period) { /* not there yet */ }
  /// ```
  @inlinable
  public func readAll(into destination: UnsafeMutableBufferPointer<Element>) -> Bool {
    guard let target = destination.baseAddress else { return true }
    let count = destination.count
    let read = self.consumerLine[0]
    guard self.readySpace(at: read, needed: count) >= count else { return false }
    self.copyOut(into: target, count: count, at: read)
    return true
  }

  /// Takes the oldest element; nil when the ring is empty. [consumer]
  @inlinable public func pop() -> Element? {
    let read = self.consumerLine[0]
    guard self.readySpace(at: read, needed: 1) > 0 else { return nil }
    let element = self.storage[read & self.mask]
    self.publishRead(read + 1)
    return element
  }

  /// The oldest element, left in the ring; nil when the ring is empty. [consumer]
  @inlinable public func peek() -> Element? {
    let read = self.consumerLine[0]
    guard self.readySpace(at: read, needed: 1) > 0 else { return nil }
    return self.storage[read & self.mask]
  }

  /// The ready elements as up to two regions of the ring's memory, oldest first: read them,
  /// then ``commitRead(_:)`` how many you consumed. [consumer]
  @inlinable
  public func readableRegions() -> (UnsafeBufferPointer<Element>, UnsafeBufferPointer<Element>) {
    let read = self.consumerLine[0]
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
    let read = self.consumerLine[0]
    precondition(count >= 0 && count <= self.consumerLine[1] - read, "released more than was ready")
    self.publishRead(read + count)
  }
}
