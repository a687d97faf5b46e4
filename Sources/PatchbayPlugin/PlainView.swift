/// A view as plain text: each control character but newline (C0, DEL and C1) written as its
/// visible escape, as in the text form of values. A view is drawn by the host, so a feature
/// that shows what people typed cannot move its cursor or change its colours.
///
/// ```swift
/// plainView("red \u{1b}[31m")   // "red \\u{1b}[31m"
/// ```
@usableFromInline
func plainView(_ text: String) -> String {
  guard text.unicodeScalars.contains(where: isControl) else { return text }
  var plain = String.UnicodeScalarView()
  for scalar in text.unicodeScalars {
    if isControl(scalar) {
      plain.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
    } else {
      plain.append(scalar)
    }
  }
  return String(plain)
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar != "\n" && (scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value))
}
