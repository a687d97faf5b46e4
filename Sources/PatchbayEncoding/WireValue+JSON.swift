extension WireValue {
  /// JSON for people and tools: records are objects, lists arrays, `nil` null; a case is an
  /// object with its name as the only key: `{"setStep": {"by": 5}}`.
  ///
  /// With `pretty`, nested values are indented by two spaces and keys keep their order.
  public func json(pretty: Bool = false) -> String {
    var text = ""
    self.writeJSON(to: &text, indent: pretty ? 0 : nil)
    return text
  }

  private func writeJSON(to text: inout String, indent: Int?) {
    switch self {
    case .nil:
      text += "null"
    case .bool(let value):
      text += value ? "true" : "false"
    case .int(let value):
      text += String(value)
    case .double(let value):
      text += value.isFinite ? String(value) : "null"
    case .string(let value):
      text += jsonString(value)
    case .list(let values):
      writeContainer("[", "]", values.map { (nil, $0) }, to: &text, indent: indent)
    case .record(let fields):
      writeContainer("{", "}", fields.map { ($0.name, $0.value) }, to: &text, indent: indent)
    case .case(let name, let fields):
      let payload = WireValue.record(fields)
      writeContainer("{", "}", [(name, payload)], to: &text, indent: indent)
    }
  }

  private func writeContainer(
    _ open: String, _ close: String, _ items: [(String?, WireValue)], to text: inout String,
    indent: Int?
  ) {
    guard !items.isEmpty else {
      text += open + close
      return
    }
    text += open
    for (index, (key, value)) in items.enumerated() {
      if index > 0 { text += "," }
      if let indent {
        text += "\n" + String(repeating: "  ", count: indent + 1)
      }
      if let key { text += jsonString(key) + (indent == nil ? ":" : ": ") }
      value.writeJSON(to: &text, indent: indent.map { $0 + 1 })
    }
    if let indent { text += "\n" + String(repeating: "  ", count: indent) }
    text += close
  }
}

/// A JSON string literal.
func jsonString(_ string: String) -> String {
  escaped(string) { value in
    let hex = String(value, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }
}
