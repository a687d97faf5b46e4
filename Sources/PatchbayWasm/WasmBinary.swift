import WasmKit

/// The WebAssembly binary format, as much of it as the host's helper modules need
/// (``WasmIndirectCaller``, ``WasmTableGrower``): a module of types, imports from the guest
/// ("patchbay" "table", "patchbay" "function"), one function of its own, and exports.
///
/// ```swift
/// let bytes = WasmBinary.module(types: [WasmBinary.functionType([], [.i32])], imports: [],
///                               function: (type: 0, body: [0x00, 0x41, 0x07, 0x0B]),
///                               exports: [("seven", 0)])
/// ```
enum WasmBinary {
  /// A module: `function` (its type's index, its body with the locals' count first) gets the
  /// index after the imported functions; `exports` name function indices; `references` are
  /// the functions its code takes a reference to (`ref.func`), declared in an element segment
  /// as validation asks.
  static func module(
    types: [[UInt8]], imports: [[UInt8]], function: (type: Int, body: [UInt8]),
    exports: [(String, Int)], references: [Int] = []
  ) -> [UInt8] {
    // A declarative element segment (flags 3) of function indices (kind 0).
    let declared =
      references.isEmpty
      ? []
      : Self.section(
        9, Self.vector([[0x03, 0x00] + Self.vector(references.map { Self.leb($0) })]))
    return [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]
      + Self.section(1, Self.vector(types))
      + Self.section(2, Self.vector(imports))
      + Self.section(3, Self.vector([Self.leb(function.type)]))
      + Self.section(7, Self.vector(exports.map { Self.name($0.0) + [0x00] + Self.leb($0.1) }))
      + declared
      + Self.section(10, Self.vector([Self.leb(function.body.count) + function.body]))
  }

  /// The guest's function table: funcref, limits without a maximum, at least 0 elements.
  static let tableImport = Self.name("patchbay") + Self.name("table") + [0x01, 0x70, 0x00, 0x00]

  /// A function imported as "patchbay" "function", of type `type` (an index).
  static func functionImport(type: Int) -> [UInt8] {
    Self.name("patchbay") + Self.name("function") + [0x00] + Self.leb(type)
  }

  static func functionType(_ parameters: [ValueType], _ results: [ValueType]) -> [UInt8] {
    [0x60] + Self.vector(parameters.map { [Self.code($0)] })
      + Self.vector(results.map { [Self.code($0)] })
  }

  private static func code(_ type: ValueType) -> UInt8 {
    switch type {
    case .i32: 0x7F
    case .i64: 0x7E
    case .f32: 0x7D
    case .f64: 0x7C
    default: preconditionFailure("a C function's wasm32 type has only numbers, not \(type)")
    }
  }

  private static func section(_ id: UInt8, _ contents: [UInt8]) -> [UInt8] {
    [id] + Self.leb(contents.count) + contents
  }

  private static func vector(_ items: [[UInt8]]) -> [UInt8] {
    Self.leb(items.count) + items.flatMap { $0 }
  }

  private static func name(_ text: String) -> [UInt8] { Self.leb(text.utf8.count) + text.utf8 }

  /// Unsigned LEB128.
  static func leb(_ value: Int) -> [UInt8] {
    var value = UInt(value)
    var bytes: [UInt8] = []
    repeat {
      let low = UInt8(value & 0x7F)
      value >>= 7
      bytes.append(value == 0 ? low : low | 0x80)
    } while value != 0
    return bytes
  }
}
