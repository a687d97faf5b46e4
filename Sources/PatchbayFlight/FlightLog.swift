import Foundation

/// A flight file read back (``FlightWriter``): the config the run used and its history, from
/// the oldest whole checkpoint on — the checkpoint's records, then every action and change
/// after it, up to the action being reduced when the run stopped.
///
/// ```swift
/// let log = try FlightLog(file: "/tmp/patchbay-flight/app-4242.flight")
/// log.config       // "/…/host-config/app.toml"
/// log.history      // [.checkpoint(actions: 5000), .kept(…), .checkpointEnd, .site(…), .action(…), …]
/// ```
///
/// A damaged file says where: the header, or the segment and byte of the first record that
/// does not read.
public struct FlightLog: Sendable, Equatable {
  public let file: String
  public let config: String
  /// The process that wrote it.
  public let pid: Int32
  /// The history, oldest first, starting with a whole checkpoint.
  public let history: [FlightRecord]

  /// Whether `file` starts as a flight file does.
  public static func isFlightFile(_ file: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: file) else { return false }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: FlightLayout.magic.count)).map(Array.init)
      == FlightLayout.magic
  }

  public init(file: String) throws(FlightError) {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw FlightError(file: file, "cannot read it; check the path")
    }
    try self.init(bytes: [UInt8](data), file: file)
  }

  public init(bytes: [UInt8], file: String) throws(FlightError) {
    self.file = file
    var header = FlightBytes.Reader(bytes.prefix(FlightLayout.headerSize))
    guard Array(bytes.prefix(8)) == FlightLayout.magic else {
      throw FlightError(file: file, "not a flight recording (it does not start with PBFLIGHT)")
    }
    guard bytes.count >= FlightLayout.headerSize else {
      throw FlightError(
        file: file, "the header's sizes do not match the file (\(bytes.count) bytes): cut short?")
    }
    _ = header.uint64()
    let version = header.uint32()
    guard version == FlightLayout.version else {
      throw FlightError(
        file: file,
        "format version \(version ?? 0) is not \(FlightLayout.version); read it with the "
          + "patchbay that wrote it")
    }
    _ = header.uint32()
    let size = Int(header.uint64() ?? 0)
    self.pid = Int32(bitPattern: header.uint32() ?? 0)
    let configLength = Int(header.uint32() ?? 0)
    guard size > 0, bytes.count >= FlightLayout.headerSize + 2 * size,
      configLength <= FlightLayout.longestConfig
    else {
      throw FlightError(
        file: file, "the header's sizes do not match the file (\(bytes.count) bytes): cut short?")
    }
    let configBytes = bytes[FlightLayout.configOffset..<FlightLayout.configOffset + configLength]
    self.config = String(decoding: configBytes, as: UTF8.self)

    var segments: [(number: UInt64, records: [FlightRecord])] = []
    for index in 0..<2 {
      var fields = FlightBytes.Reader(
        bytes[FlightLayout.segmentNumberOffset(index)..<FlightLayout.segmentBytesOffset(index) + 8])
      let number = fields.uint64() ?? 0
      let whole = Int(fields.uint64() ?? 0)
      guard number > 0 else { continue }
      guard whole <= size else {
        throw FlightError(
          file: file, "segment \(index) says it holds \(whole) bytes, more than its \(size)")
      }
      let start = FlightLayout.segmentStart(index, size: size)
      segments.append(
        (number, try Self.records(bytes[start..<start + whole], segment: index, file: file)))
    }
    segments.sort { $0.number < $1.number }
    self.history = Self.history(segments)
  }

  /// The records of one segment's whole bytes.
  static func records(_ bytes: ArraySlice<UInt8>, segment: Int, file: String)
    throws(FlightError) -> [FlightRecord]
  {
    var records: [FlightRecord] = []
    var at = bytes.startIndex
    while at < bytes.endIndex {
      var fields = FlightBytes.Reader(bytes[at...])
      guard let length = fields.uint32(), let kind = fields.uint8(),
        at + FlightLayout.recordHeader + Int(length) <= bytes.endIndex,
        let record = FlightRecord(
          kind: kind,
          payload: bytes[
            at + FlightLayout.recordHeader..<at + FlightLayout.recordHeader + Int(length)])
      else {
        throw FlightError(
          file: file,
          "segment \(segment), byte \(at - bytes.startIndex): a record that does not read")
      }
      records.append(record)
      at += FlightLayout.recordHeader + Int(length)
    }
    return records
  }

  /// The older segment whole, then the newer one's records after its checkpoint; a newer one
  /// whose checkpoint is not whole (the run stopped while writing it) adds nothing.
  static func history(_ segments: [(number: UInt64, records: [FlightRecord])]) -> [FlightRecord] {
    let whole = segments.filter { $0.records.contains(.checkpointEnd) }
    guard let newest = whole.last else { return [] }
    guard whole.count == 2, whole[0].number + 1 == newest.number else { return newest.records }
    let afterCheckpoint = newest.records.drop { $0 != .checkpointEnd }.dropFirst()
    return whole[0].records + afterCheckpoint
  }
}
