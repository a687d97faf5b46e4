import PatchbayEncoding

/// Arbitrary bytes as an encoded value (patchbay/value.h): what a plugin's snapshot or a
/// corrupt state file hands the host.
///
/// Whatever the Swift decoder accepts, the C reader reads whole, encodes back to the same
/// bytes, formats to the same text in C and in Swift, and (when text can say it) parses back
/// from that text to the same value.
enum ValueFuzzing {
  static func check(_ input: [UInt8]) throws(FuzzViolation) {
    guard let value = try? WireValue(decoding: input) else { return }
    guard CValueText.skipsOneValue(input) else {
      throw FuzzViolation(.value, "Swift decodes \(value.actionText), pb_skip_value does not")
    }
    guard value.bytes == input else {
      throw FuzzViolation(.value, "\(value.actionText) encodes to other bytes than it came from")
    }
    let text = value.actionText
    guard let cText = CValueText.format(input) else {
      throw FuzzViolation(.value, "pb_format_value_text refuses \(text)")
    }
    guard cText == text else {
      throw FuzzViolation(.value, "C formats \(cText), Swift \(text)")
    }
    guard case .case = value, value.isSayableAsText else { return }
    guard let reparsed = try? WireValue(parsingAction: text) else {
      throw FuzzViolation(.value, "\(text), written by actionText, does not parse")
    }
    guard reparsed == value else {
      throw FuzzViolation(.value, "\(text) parses to \(reparsed.actionText)")
    }
  }
}

extension WireValue {
  /// Whether the text form can say this value: every name an identifier, no number that is
  /// not finite, and no case that reads as a keyword (`true`, `false`, `nil`).
  var isSayableAsText: Bool {
    switch self {
    case .nil, .bool, .int, .string: return true
    case .double(let value): return value.isFinite
    case .list(let values): return values.allSatisfy(\.isSayableAsText)
    case .record(let fields): return fields.allSatisfy(\.isSayableAsText)
    case .case(let name, let fields):
      return name.isIdentifier && (!fields.isEmpty || !["true", "false", "nil"].contains(name))
        && fields.allSatisfy(\.isSayableAsText)
    }
  }
}

extension WireValue.Field {
  fileprivate var isSayableAsText: Bool { self.name.isIdentifier && self.value.isSayableAsText }
}

extension String {
  /// `[A-Za-z_][A-Za-z0-9_]*`: a name the action text grammar reads.
  var isIdentifier: Bool {
    guard let first = self.utf8.first, first == UInt8(ascii: "_") || first.isASCIILetter else {
      return false
    }
    return self.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0.isASCIILetter || $0.isASCIIDigit }
  }
}

extension UInt8 {
  var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
  var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}
