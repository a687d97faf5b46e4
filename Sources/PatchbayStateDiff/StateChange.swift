import Foundation

/// One value an action changed, as a program applies it to its copy of the state's JSON:
/// where (a JSON Pointer, RFC 6901: `/tallies/0/count`, `""` for the whole state) and what is
/// there now (compact JSON; nil when the value was removed).
///
/// ```swift
/// StateChange(pointer: "/count", json: "1")        // set
/// StateChange(pointer: "/items/3", json: nil)      // removed (a list that shrank)
/// ```
package struct StateChange: Equatable, Sendable {
  package let pointer: String
  package let json: String?

  package init(pointer: String, json: String?) {
    self.pointer = pointer
    self.json = json
  }

  /// A key as one JSON Pointer token: `~` is `~0` and `/` is `~1`.
  static func escaped(_ key: String) -> String {
    guard key.contains(where: { $0 == "~" || $0 == "/" }) else { return key }
    return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
