/// The action texts one plugin generation has parsed, with their bytes: parsing is pure, and
/// scripts and people send the same few actions again and again.
///
/// ```swift
/// var cache = ParsedActionCache()
/// cache.insert(bytes, for: "increment")
/// cache.bytes(for: "increment")   // bytes: the last text found, one comparison
/// ```
///
/// The text found last is compared first (a short text compares in registers, without
/// hashing); the others are looked up by hash. At most ``capacity`` texts are kept: past it
/// the cache starts again, so a script of ever-new texts cannot grow it without bound.
struct ParsedActionCache {
  static let capacity = 256

  private var last: (text: String, bytes: [UInt8])?
  private var all: [String: [UInt8]] = [:]

  /// How many texts are kept.
  var count: Int { self.all.count }

  /// The bytes `text` parsed to, if it was parsed.
  mutating func bytes(for text: String) -> [UInt8]? {
    if let last = self.last, last.text == text { return last.bytes }
    guard let bytes = self.all[text] else { return nil }
    self.last = (text, bytes)
    return bytes
  }

  mutating func insert(_ bytes: [UInt8], for text: String) {
    if self.all.count >= Self.capacity { self.all.removeAll(keepingCapacity: true) }
    self.all[text] = bytes
    self.last = (text, bytes)
  }

  /// Forgets every text (the plugin was swapped: another generation may parse differently).
  mutating func removeAll() {
    self.all.removeAll()
    self.last = nil
  }
}
