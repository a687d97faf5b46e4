import Foundation
import PatchbayEncoding

/// The values a script writes and expects: JSON scalars and arrays, JSON pointers into a
/// state, equality as JSON sees it, and the words of a command line.
extension WireValue {
  /// A value from a JSON scalar or array (`5`, `"hi"`, `true`, `null`, `[1, 2]`).
  init?(json text: String) {
    let text = text.trimmingCharacters(in: .whitespaces)
    if text == "null" {
      self = .nil
      return
    }
    // The action text grammar reads JSON scalars and arrays the same way.
    guard case .case(_, let fields)? = try? WireValue(parsingAction: "value(\(text))"),
      fields.count == 1, fields[0].name == "_0", fields[0].value.isJSON
    else { return nil }
    self = fields[0].value
  }

  /// Whether JSON can say this value (no cases, which the action grammar also reads).
  var isJSON: Bool {
    switch self {
    case .case: false
    case .list(let values): values.allSatisfy(\.isJSON)
    case .record(let fields): fields.allSatisfy(\.value.isJSON)
    default: true
    }
  }

  /// The value at a JSON pointer (`/count`, `/items/0`, `` for the whole value).
  subscript(pointer pointer: String) -> WireValue? {
    var current: WireValue? = self
    for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(
        of: "~0", with: "~")
      switch current {
      case .list(let values)?:
        guard let index = Int(key), values.indices.contains(index) else { return nil }
        current = values[index]
      case .record, .case:
        current = current?[field: key]
      default:
        return nil
      }
    }
    return current
  }

  /// Equality as JSON sees it: an int equals the same double; records ignore field order.
  func matches(_ other: WireValue) -> Bool {
    switch (self, other) {
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
    case (.list(let a), .list(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1) }
    case (.record(let a), .record(let b)):
      return a.count == b.count
        && a.allSatisfy { field in
          b.first { $0.name == field.name }.map { field.value.matches($0.value) } ?? false
        }
    default: return self == other
    }
  }
}

/// `69 "a b" [1, 2]` → ["69", "\"a b\"", "[1, 2]"]: words split at spaces outside quotes and
/// brackets.
func splitValues(_ text: String) -> [String] {
  var words: [String] = []
  var current = ""
  var depth = 0
  var quoted = false
  var escaped = false
  for character in text {
    if quoted {
      current.append(character)
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted = false
      }
      continue
    }
    switch character {
    case "\"": quoted = true
    case "[", "{", "(": depth += 1
    case "]", "}", ")": depth -= 1
    case " " where depth == 0:
      if !current.isEmpty { words.append(current) }
      current = ""
      continue
    default: break
    }
    current.append(character)
  }
  if !current.isEmpty { words.append(current) }
  return words
}

extension WireValue {
  /// A function's result as scripts and `patchbay call` print it: text as it is, anything
  /// else as a value.
  public var callText: String {
    if case .string(let text) = self { return text }
    return self.actionText
  }
}
