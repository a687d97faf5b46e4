import SwiftSyntax

/// The signature string of patchbay/functions.h for a Swift function type, from its syntax:
/// `(Int32, Double) -> Double` is `double(int32, double)`. A pointer-and-count pair is one
/// parameter: `(UnsafeMutablePointer<CChar>?, Int)` is `out_string`, `(UnsafePointer<UInt8>?,
/// Int)` is `buffer`; `UnsafePointer<CChar>?` alone is `string`.
enum CSignature {
  static let scalars: [String: String] = [
    "Int8": "int8", "Int16": "int16", "Int32": "int32", "Int64": "int64", "Int": "int64",
    "UInt8": "uint8", "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64", "UInt": "size",
    "Float": "float", "Double": "double", "Bool": "bool", "CInt": "int32", "CLong": "int64",
    "UnsafeRawPointer": "pointer", "UnsafeMutableRawPointer": "pointer",
  ]

  /// `double(int32, double)`, or the type that cannot cross the C ABI.
  static func of(parameters: [String], result: String) -> Result<String, Unsupported> {
    var names: [String] = []
    var index = 0
    while index < parameters.count {
      let type = Self.bare(parameters[index])
      let next = index + 1 < parameters.count ? Self.bare(parameters[index + 1]) : nil
      if Self.isPointer(type, to: "CChar", mutable: true), next == "Int" {
        names.append("out_string")
        index += 2
      } else if Self.isPointer(type, to: "UInt8", mutable: false), next == "Int" {
        names.append("buffer")
        index += 2
      } else if Self.isPointer(type, to: "CChar", mutable: false) {
        names.append("string")
        index += 1
      } else if let name = Self.scalars[type] {
        names.append(name)
        index += 1
      } else {
        return .failure(Unsupported(type: parameters[index]))
      }
    }
    let bareResult = Self.bare(result)
    let returned: String
    if ["", "Void", "()"].contains(bareResult) {
      returned = "void"
    } else if let name = Self.scalars[bareResult] {
      returned = name
    } else {
      return .failure(Unsupported(type: result))
    }
    return .success("\(returned)(\(names.joined(separator: ", ")))")
  }

  struct Unsupported: Error {
    let type: String
    var message: String {
      "'\(type)' cannot cross the C ABI: use Int32, Int64, Double, Float, Bool, a pointer, or "
        + "(UnsafeMutablePointer<CChar>?, Int) for an out_string"
    }
  }

  /// `Int32` from `Swift.Int32`, `UnsafePointer<CChar>` from `UnsafePointer<CChar>?`.
  private static func bare(_ type: String) -> String {
    var text = type.replacingSwiftPrefix()
    while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
    return text
  }

  private static func isPointer(_ type: String, to pointee: String, mutable: Bool) -> Bool {
    type == "\(mutable ? "UnsafeMutablePointer" : "UnsafePointer")<\(pointee)>"
  }
}

extension String {
  fileprivate func replacingSwiftPrefix() -> String {
    var text = Substring(self)
    while let range = text.range(of: "Swift.") { text.removeSubrange(range) }
    return String(text.filter { $0 != " " })
  }
}

extension Substring {
  fileprivate func range(of needle: String) -> Range<Index>? {
    var start = self.startIndex
    while start < self.endIndex {
      if self[start...].hasPrefix(needle) {
        return start..<self.index(start, offsetBy: needle.count)
      }
      start = self.index(after: start)
    }
    return nil
  }
}
