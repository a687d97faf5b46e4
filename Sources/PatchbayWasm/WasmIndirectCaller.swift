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
    var body: [UInt8] = [0x00]  // no locals
    for index in 0...type.parameters.count { body += [0x20] + WasmBinary.leb(index) }  // local.get
    body += [0x11, 0x00, 0x00, 0x0B]  // call_indirect (type 0) (table 0), end
    return WasmBinary.module(
      types: [
        WasmBinary.functionType(type.parameters, type.results),
        WasmBinary.functionType(type.parameters + [.i32], type.results),
      ],
      imports: [WasmBinary.tableImport],
      function: (type: 1, body: body), exports: [("call", 0)])
  }
}
