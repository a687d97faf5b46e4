import PatchbayEncoding

/// Arbitrary bytes as the text form of an action: what people type at `send`, in scripts and
/// at the terminal UI's command line, parsed by the SDK for Swift features and by
/// `pb_parse_action_text` for C ones.
///
/// The two parsers accept the same texts and write the same bytes; whatever C writes is a
/// value; and a parsed action says itself again (`actionText`) as a text that parses to it.
enum ActionTextFuzzing {
  static func check(_ input: [UInt8]) throws(FuzzViolation) {
    let cBytes = CValueText.parseAction(input)
    if let cBytes, (try? WireValue(decoding: cBytes)) == nil {
      throw FuzzViolation(.actionText, "pb_parse_action_text wrote bytes that are not a value")
    }
    guard let text = String(validating: input, as: UTF8.self) else { return }
    let swift = try? WireValue(parsingAction: text)
    switch (swift, cBytes) {
    case (nil, nil):
      return
    case (let value?, nil):
      throw FuzzViolation(.actionText, "Swift reads \(value.actionText), C refuses the text")
    case (nil, _?):
      throw FuzzViolation(.actionText, "C reads the text, Swift refuses it")
    case (let value?, let cBytes?):
      guard value.bytes == cBytes else {
        throw FuzzViolation(.actionText, "C and Swift write different bytes for it")
      }
      let again = value.actionText
      guard let reparsed = try? WireValue(parsingAction: again), reparsed == value else {
        throw FuzzViolation(.actionText, "it reads as \(again), which does not read back")
      }
      guard CValueText.format(cBytes) == again else {
        throw FuzzViolation(.actionText, "C formats it otherwise than Swift's \(again)")
      }
    }
  }
}
