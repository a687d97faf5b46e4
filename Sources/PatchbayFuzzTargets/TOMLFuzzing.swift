import PatchbayTOML

/// Arbitrary bytes as a host-config file.
///
/// The parser returns a document or a syntax error, and both point inside the text: every
/// value and table at a line the file has, an error at a line and column that exist.
enum TOMLFuzzing {
  static func check(_ input: [UInt8]) throws(FuzzViolation) {
    let text = String(decoding: input, as: UTF8.self)
    let lines = text.unicodeScalars.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    do {
      let document = try TOMLDocument(parsing: text)
      let tables = [document.root] + document.tables.values + document.arrays.values.joined()
      for table in tables {
        guard (0...lines).contains(table.line) else {
          throw FuzzViolation(.toml, "table [\(table.name)] at line \(table.line) of \(lines)")
        }
        for (key, value) in table.entries where !(1...lines).contains(value.line) {
          throw FuzzViolation(.toml, "key \(key) at line \(value.line) of \(lines)")
        }
      }
    } catch let error as TOMLSyntaxError {
      guard (1...lines).contains(error.line), error.column >= 1 else {
        throw FuzzViolation(.toml, "error at line \(error.line) of \(lines): \(error)")
      }
    } catch let violation as FuzzViolation {
      throw violation
    } catch {
      throw FuzzViolation(.toml, "unexpected error \(error)")
    }
  }
}
