import Foundation
import PatchbayTOML

/// Reads typed values out of tables, collecting errors instead of stopping at the first.
struct ConfigReader {
  let file: String
  var errors: [ConfigError] = []

  mutating func error(_ line: Int?, _ keyPath: String, _ reason: ConfigError.Reason) {
    self.errors.append(ConfigError(file: self.file, line: line, keyPath: keyPath, reason))
  }

  /// Every key of `table` is one ``ConfigSchema`` lists for the table it names.
  mutating func checkKeys(_ table: TOMLDocument.Table, in schema: String) {
    self.checkKeys(table, allowed: ConfigSchema.table(schema)?.keys.map(\.name) ?? [])
  }

  mutating func checkKeys(_ table: TOMLDocument.Table, allowed: [String]) {
    for entry in table.entries where !allowed.contains(entry.key) {
      self.error(
        entry.value.line, "\(table.name).\(entry.key)",
        .unknownKey(entry.key, allowed: allowed))
    }
  }

  mutating func bool(_ table: TOMLDocument.Table, _ key: String) -> Bool? {
    guard let value = table[key] else { return nil }
    guard case .boolean(let flag) = value.kind else {
      self.error(
        value.line, "\(table.name).\(key)",
        .wrongType(expected: "true or false", found: value.typeName))
      return nil
    }
    return flag
  }

  mutating func string(_ table: TOMLDocument.Table, _ key: String, required: Bool = false)
    -> String?
  {
    guard let value = table[key] else {
      if required {
        self.error(
          table.line == 0 ? nil : table.line, "\(table.name).\(key)", .missing(expected: "a string")
        )
      }
      return nil
    }
    guard case .string(let string) = value.kind else {
      self.error(
        value.line, "\(table.name).\(key)", .wrongType(expected: "a string", found: value.typeName))
      return nil
    }
    return string
  }

  mutating func strings(_ table: TOMLDocument.Table, _ key: String, required: Bool = false) -> [(
    value: String, line: Int
  )]? {
    guard let value = table[key] else {
      if required {
        self.error(table.line, "\(table.name).\(key)", .missing(expected: "an array of strings"))
      }
      return nil
    }
    guard case .array(let elements) = value.kind else {
      self.error(
        value.line, "\(table.name).\(key)",
        .wrongType(expected: "an array of strings", found: value.typeName))
      return nil
    }
    var result: [(String, Int)] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let string) = element.kind else {
        self.error(
          element.line, "\(table.name).\(key)[\(index)]",
          .wrongType(expected: "a string", found: element.typeName))
        continue
      }
      result.append((string, element.line))
    }
    return result
  }
}
