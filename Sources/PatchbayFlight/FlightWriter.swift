import Foundation
import Synchronization

/// The flight recorder's file: the app's last actions, always on, in a file mapped into
/// memory (``FlightLayout``). An action costs a copy of its bytes into the map and two stores;
/// no system call, no lock of its own (its owner's serialises it). What is written is in the
/// file the moment it is written: a crash, a hang the watchdog ends, even `kill -9` leaves the
/// actions up to the one being reduced, and `patchbay repro` reads them.
///
/// ```swift
/// let flight = try FlightWriter(file: "/tmp/run.flight", config: "app.toml", actions: 10_000)
/// flight.begin(checkpoint: [.kept(path: "counter", state: bytes)])  // the app as it starts
/// let site = flight.site(for: ObjectIdentifier(generation)) {
///   (generation, "counter", "dev.patchbay.counter", "/…/libCounter.so")
/// }
/// if flight.needsCheckpoint(forAction: action.count) { flight.begin(checkpoint: …) }
/// flight.action(site: site, source: 0, bytes: action)   // before the reduce
/// ```
///
/// Memory: the map is two segments of `segmentBytes` each (the page cache's, only as far as
/// written), plus the sites' table. [not thread-safe: its owner serialises the calls]
public final class FlightWriter: @unchecked Sendable {
  public let file: String
  /// How many actions a segment holds before the next begins: half the recorder's length.
  public let actionsPerSegment: Int
  private var base: UnsafeMutableRawPointer
  private var segmentSize: Int
  private var descriptor: Int32
  private var active = 1
  private var number: UInt64 = 0
  private var offset = 0
  private var actionsInSegment = 0
  /// The actions the active segment holds before the next checkpoint: ``actionsPerSegment``,
  /// or ``actionsPerCheckpointRecord`` for each record of its checkpoint when that is more.
  private var segmentActions: Int
  /// Every action so far, in the whole run.
  public private(set) var actions: UInt64 = 0
  /// The sites of the active segment, by the object that identifies them (held, so that its
  /// address is not reused while the segment names it).
  private var sites: [AnyObject] = []

  /// Creates (or truncates) `file` for a run of `config`, keeping at least `actions` actions.
  /// A segment starts at `segmentBytes` (at least 64 KiB) and grows when a checkpoint needs more.
  public init(file: String, config: String, actions: Int, segmentBytes: Int = 1 << 20)
    throws(FlightError)
  {
    self.file = file
    self.actionsPerSegment = max(1, (actions + 1) / 2)
    self.segmentActions = self.actionsPerSegment
    self.segmentSize = max(64 << 10, segmentBytes)
    let descriptor = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw FlightError(file: file, "cannot create it (\(String(cString: strerror(errno))))")
    }
    self.descriptor = descriptor
    self.exitEntry = FilesRemovedAtExit.add(file)
    self.base = UnsafeMutableRawPointer(bitPattern: 1)!
    do throws(FlightError) {
      self.base = try Self.map(descriptor, size: Self.length(self.segmentSize), file: file)
    } catch {
      close(descriptor)
      throw error
    }
    self.base.copyMemory(from: FlightLayout.magic, byteCount: FlightLayout.magic.count)
    self.store(FlightLayout.version, at: 8)
    self.store(UInt32(FlightLayout.headerSize), at: 12)
    self.store(UInt64(self.segmentSize), at: FlightLayout.segmentSizeOffset)
    self.store(UInt32(truncatingIfNeeded: getpid()), at: FlightLayout.pidOffset)
    let path = Array(config.utf8.prefix(FlightLayout.longestConfig))
    self.store(UInt32(path.count), at: FlightLayout.configLengthOffset)
    (self.base + FlightLayout.configOffset).copyMemory(from: path, byteCount: path.count)
  }

  deinit {
    munmap(self.base, Self.length(self.segmentSize))
    close(self.descriptor)
  }

  /// Removes the file: a run that ended well leaves none behind. A process that exits
  /// (`exit`, a return from `main`) removes those it did not; one that crashes, or is ended by
  /// the watchdog or a signal, leaves them.
  public func remove() {
    FilesRemovedAtExit.remove(self.exitEntry)
  }

  /// The file's place among those the process removes at exit.
  private let exitEntry: UnsafeMutablePointer<FilesRemovedAtExit.Entry>

  /// Whether a checkpoint should come before an action of `count` bytes: none was written yet,
  /// or the segment has held its share of actions (``segmentActions``), or has no room left
  /// for it and cannot grow. A segment out of room before its share grows instead (a big
  /// app's checkpoint fills most of a segment, and must not be taken again at once).
  @inline(__always)
  public func needsCheckpoint(forAction count: Int) -> Bool {
    if self.number == 0 || self.actionsInSegment >= self.segmentActions { return true }
    let needed = self.offset + FlightLayout.recordHeader + 3 + count
    return needed > self.segmentSize && !self.grow(toFit: max(needed, 2 * self.segmentSize))
  }

  /// The actions a segment holds, at least, for each record of its checkpoint. A checkpoint
  /// takes a snapshot of every instance; with 16 actions a record, it costs each action a
  /// sixteenth of a snapshot at most, however many instances the app has (docs/BENCHMARKS.md,
  /// "Growth").
  public static let actionsPerCheckpointRecord = 16

  /// The number of the site `key` (the identity of an instance's code, one object per
  /// generation), defining it in the segment first if it is new there: `describe` gives that
  /// object, held while the segment names it (so its identity names no other), and what the
  /// site is. Takes an identity, not the object: a send retains nothing.
  @inline(__always)
  public func site(
    for key: ObjectIdentifier,
    _ describe: () -> (owner: AnyObject, path: String, feature: String, plugin: String)
  ) -> UInt16 {
    // Most actions go to the instance the one before went to.
    if key == self.lastSite.key { return self.lastSite.number }
    return self.lookUpSite(for: key, describe)
  }

  /// ``site(for:_:)`` for a key other than the last one's.
  private func lookUpSite(
    for key: ObjectIdentifier,
    _ describe: () -> (owner: AnyObject, path: String, feature: String, plugin: String)
  ) -> UInt16 {
    // An app's actions go to a few instances at a time: the last ones are searched first.
    let id: UInt16
    if let index = self.sites.lastIndex(where: { ObjectIdentifier($0) == key }) {
      id = UInt16(index)
    } else {
      id = UInt16(truncatingIfNeeded: self.sites.count)
      let site = describe()
      self.sites.append(site.owner)
      self.write(.site(id: id, path: site.path, feature: site.feature, plugin: site.plugin))
    }
    self.lastSite = (key, id)
    return id
  }

  /// The site the last action went to (its owner is held in `sites`, so it names no other).
  private var lastSite: (key: ObjectIdentifier?, number: UInt16) = (nil, 0)

  /// Writes an action about to be reduced. Call ``needsCheckpoint(forAction:)`` first.
  public func action(site: UInt16, source: UInt8, bytes: UnsafeRawBufferPointer) {
    let length = 3 + bytes.count
    guard self.offset + FlightLayout.recordHeader + length <= self.segmentSize else { return }
    let at =
      self.base + FlightLayout.segmentStart(self.active, size: self.segmentSize)
      + self.offset
    at.storeBytes(of: UInt32(length).littleEndian, as: UInt32.self)
    at.storeBytes(of: FlightRecord.Kind.action.rawValue, toByteOffset: 4, as: UInt8.self)
    at.storeBytes(of: site.littleEndian, toByteOffset: 5, as: UInt16.self)
    at.storeBytes(of: source, toByteOffset: 7, as: UInt8.self)
    if let bytes = bytes.baseAddress { (at + 8).copyMemory(from: bytes, byteCount: length - 3) }
    self.commit(FlightLayout.recordHeader + length)
    self.actionsInSegment += 1
    self.actions += 1
  }

  /// Writes any other record (``FlightRecord``).
  public func write(_ record: FlightRecord) {
    let (kind, payload) = record.payload
    let needed = FlightLayout.recordHeader + payload.count
    if self.offset + needed > self.segmentSize {
      // Only a checkpoint is written into a segment this full: the next begins with one.
      guard self.grow(toFit: self.offset + needed) else { return }
    }
    let at =
      self.base + FlightLayout.segmentStart(self.active, size: self.segmentSize)
      + self.offset
    at.storeBytes(of: UInt32(payload.count).littleEndian, as: UInt32.self)
    at.storeBytes(of: kind.rawValue, toByteOffset: 4, as: UInt8.self)
    (at + 5).copyMemory(from: payload, byteCount: payload.count)
    self.commit(needed)
  }

  /// Begins the other segment with `checkpoint`: the records that rebuild the app as it is now
  /// (its instances' states, its navigation, its swaps). The older segment is overwritten.
  public func begin(checkpoint: [FlightRecord]) {
    let next = 1 - self.active
    self.number += 1
    // Emptied before it is numbered: a reader never takes the old records for the new ones.
    self.store(UInt64(0), at: FlightLayout.segmentBytesOffset(next))
    self.store(self.number, at: FlightLayout.segmentNumberOffset(next))
    self.active = next
    self.offset = 0
    self.actionsInSegment = 0
    self.segmentActions = max(
      self.actionsPerSegment, Self.actionsPerCheckpointRecord * checkpoint.count)
    self.sites.removeAll(keepingCapacity: true)
    self.lastSite = (nil, 0)
    self.write(.checkpoint(actions: self.actions))
    checkpoint.forEach { self.write($0) }
    self.write(.checkpointEnd)
  }

  private func commit(_ bytes: Int) {
    self.offset += bytes
    self.store(UInt64(self.offset), at: FlightLayout.segmentBytesOffset(self.active))
  }

  /// Makes both segments at least `bytes` long (the file and its map), keeping what they hold.
  private func grow(toFit bytes: Int) -> Bool {
    var size = self.segmentSize
    while size < bytes { size *= 2 }
    guard let grown = try? Self.map(self.descriptor, size: Self.length(size), file: self.file)
    else { return false }
    let old = self.segmentSize
    // Both maps show the same file: the header and segment 0 stay where they are, and
    // segment 1 moves past the end of the old file (at least twice as far), no overlap.
    (grown + FlightLayout.segmentStart(1, size: size)).copyMemory(
      from: self.base + FlightLayout.segmentStart(1, size: old), byteCount: old)
    munmap(self.base, Self.length(old))
    self.base = grown
    self.segmentSize = size
    self.store(UInt64(size), at: FlightLayout.segmentSizeOffset)
    return true
  }

  private func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    self.base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
  }

  private static func length(_ segmentSize: Int) -> Int {
    FlightLayout.headerSize + 2 * segmentSize
  }

  /// Sizes the file to `size` and maps it whole, shared: what is written reaches the file.
  private static func map(_ descriptor: Int32, size: Int, file: String) throws(FlightError)
    -> UnsafeMutableRawPointer
  {
    guard ftruncate(descriptor, off_t(size)) == 0 else {
      throw FlightError(file: file, "cannot size it (\(String(cString: strerror(errno))))")
    }
    let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
    guard let mapped, mapped != MAP_FAILED else {
      throw FlightError(file: file, "cannot map it (\(String(cString: strerror(errno))))")
    }
    return mapped
  }
}

/// A flight file that could not be written or read: which, and why.
public struct FlightError: Error, CustomStringConvertible, Equatable {
  public let file: String
  public let problem: String

  init(file: String, _ problem: String) {
    self.file = file
    self.problem = problem
  }

  public var description: String { "flight recording \(self.file): \(self.problem)" }
}
