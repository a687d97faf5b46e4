import WasmKit

/// Calls a guest's function by its table index — what a C function pointer is in wasm32 —
/// which WasmKit's API cannot do: a tiny module, made here, imports the guest's function table
/// and exports `call(parameters…, index)`, which is one `call_indirect`.
///
/// ```swift
/// let caller = try WasmIndirectCaller(type: FunctionType(parameters: [.i32, .f64], results: [.f64]),
///                                     table: table, store: store)
/// try caller.function.invoke([.i32(69), .f64(440.0.bitPattern), .i32(index)])   // [.f64(440.0)]
/// ```
///
/// `call_indirect` checks what the guest holds at the index: an index past the table, an empty
/// slot, or a function of another type traps, naming it, as a bad pointer would in C.
struct WasmIndirectCaller {
  let function: Function

  init(type: FunctionType, table: Table, store: Store) throws {
    let module = try parseWasm(bytes: Self.module(for: type))
    var imports = Imports()
    imports.define(module: "patchbay", name: "table", table)
    let instance = try module.instantiate(store: store, imports: imports)
    self.function = instance.exports[function: "call"]!
  }

  /// The module's bytes: types (the callee's, then the caller's with the index last), the
  /// table import, one function, its export and its code.
  static func module(for type: FunctionType) -> [UInt8] {
    let callee = Self.functionType(type.parameters, type.results)
    let caller = Self.functionType(type.parameters + [.i32], type.results)
    // funcref table, limits without a maximum, at least 0 elements.
    let tableImport = Self.name("patchbay") + Self.name("table") + [0x01, 0x70, 0x00, 0x00]
    var body: [UInt8] = [0x00]  // no locals
    for index in 0...type.parameters.count { body += [0x20] + Self.leb(index) }  // local.get
    body += [0x11, 0x00, 0x00, 0x0B]  // call_indirect (type 0) (table 0), end
    return [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]
      + Self.section(1, Self.vector([callee, caller]))
      + Self.section(2, Self.vector([tableImport]))
      + Self.section(3, Self.vector([[0x01]]))
      + Self.section(7, Self.vector([Self.name("call") + [0x00, 0x00]]))
      + Self.section(10, Self.vector([Self.leb(body.count) + body]))
  }

  private static func functionType(_ parameters: [ValueType], _ results: [ValueType]) -> [UInt8] {
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
  private static func leb(_ value: Int) -> [UInt8] {
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
