/// What a feature asked of "patchbay.shared/1" (patchbay/shared.h): to publish a value under a
/// name, or to receive a name's values as an action. Kept in the instance's ``HostContext``
/// until the app that owns the instance takes them, after the call that made them.
package enum SharedRequest: Sendable, Equatable {
  /// `value` (value encoding) under `name`.
  case publish(name: String, value: [UInt8])
  /// `name`'s values as the action `action(_: value)`; nil stops them.
  case subscribe(name: String, action: String?)
  /// To hold `name` (2.6): `initial` is its value unless it has one; others' writes arrive as
  /// `_shared(name: "…", value: …)`.
  case hold(name: String, initial: [UInt8])
  /// A holder's new value of `name` (2.6).
  case write(name: String, value: [UInt8])

  /// The name the request is about.
  package var name: String {
    switch self {
    case .publish(let name, _), .subscribe(let name, _), .hold(let name, _),
      .write(let name, _):
      name
    }
  }

  /// Whether `name` may name shared state: 1 to 64 ASCII letters, digits, `.`, `-` or `_`.
  package static func isValid(name: String) -> Bool {
    (1...64).contains(name.utf8.count)
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x2D || byte == 0x5F
      }
  }

  /// Whether `action` may name an action case: `[A-Za-z_][A-Za-z0-9_]*` (patchbay/value.h).
  package static func isValid(action: String) -> Bool {
    guard let first = action.utf8.first, first != 0x2D, !(0x30...0x39).contains(first) else {
      return false
    }
    return action.utf8.count <= 64
      && action.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || byte == 0x5F
      }
  }
}
