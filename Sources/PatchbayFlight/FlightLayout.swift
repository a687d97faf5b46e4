/// Where things are in a flight file: a 4 KiB header, then two segments of the same size.
///
/// ```text
/// 0     "PBFLIGHT"            8   version (1)          12  header size (4096)
/// 16    segment size          24  pid                  28  config's length
/// 32    segment 0: its number (1, 2, … as segments begin; 0: never begun), 40: bytes whole
/// 48    segment 1: the same
/// 64    the config's path (UTF-8)
/// 4096  segment 0's records, then segment 1's
/// ```
///
/// Each segment starts with a checkpoint; the app writes its records into the newer one until
/// it has held its share of actions, then begins the other (the older is overwritten). So the
/// file always holds the older segment, whole, and the newer one as far as it got: at least a
/// segment's worth of actions, from a checkpoint on. A segment's byte count is stored after
/// each record is written: a process that dies mid-record leaves the records before it whole.
enum FlightLayout {
  static let magic = Array("PBFLIGHT".utf8)
  static let version: UInt32 = 1
  static let headerSize = 4_096
  static let segmentSizeOffset = 16
  static let pidOffset = 24
  static let configLengthOffset = 28
  static let configOffset = 64
  static let longestConfig = headerSize - configOffset

  /// The offset of segment `index`'s number; its byte count follows it.
  static func segmentNumberOffset(_ index: Int) -> Int { 32 + 16 * index }
  static func segmentBytesOffset(_ index: Int) -> Int { 40 + 16 * index }
  static func segmentStart(_ index: Int, size: Int) -> Int { headerSize + index * size }

  /// A record's length and kind, before its payload.
  static let recordHeader = 5
}
