import PatchbayEncoding

/// JSON written by hand, for the messages DevTools sends many of: an object is its fields'
/// texts joined, values already JSON.
///
/// ```swift
/// JSONText.object([("kind", JSONText.string("swap")), ("seq", "4")])
/// // {"kind":"swap","seq":4}
/// ```
enum JSONText {
  static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(self.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  static func array(_ items: [String]) -> String {
    "[" + items.joined(separator: ",") + "]"
  }

  /// A JSON string literal (the same escaping as a state's JSON).
  static func string(_ text: String) -> String {
    WireValue.string(text).json()
  }
}
