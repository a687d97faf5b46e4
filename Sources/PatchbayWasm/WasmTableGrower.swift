import WasmKit

/// Puts a host function into a guest's function table, growing it by one: then the guest calls
/// it through a C function pointer (the index) with `call_indirect`, as any of its own. WasmKit
/// has no API to grow a table, so a tiny module made here imports the table and the function
/// and runs `table.grow` with a reference to it. The guest must be linked with a growable
/// table (wasm-cc's `--growable-table`).
///
/// ```swift
/// let index = try WasmTableGrower.append(function, of: type, to: table, in: store)  // 57
/// ```
enum WasmTableGrower {
  /// The index `function` (of wasm type `type`) now has in `table`; nil when the table cannot
  /// grow (its maximum, or the host's limit).
  static func append(_ function: Function, of type: FunctionType, to table: Table, in store: Store)
    throws -> UInt32?
  {
    // ref.func 0 (the import), i32.const 1, table.grow 0: the old size, or -1.
    let body: [UInt8] = [0x00, 0xD2, 0x00, 0x41, 0x01, 0xFC, 0x0F, 0x00, 0x0B]
    let bytes = WasmBinary.module(
      types: [
        WasmBinary.functionType(type.parameters, type.results), WasmBinary.functionType([], [.i32]),
      ],
      imports: [WasmBinary.tableImport, WasmBinary.functionImport(type: 0)],
      function: (type: 1, body: body), exports: [("grow", 1)], references: [0])
    var imports = Imports()
    imports.define(module: "patchbay", name: "table", table)
    imports.define(module: "patchbay", name: "function", function)
    let instance = try parseWasm(bytes: bytes).instantiate(store: store, imports: imports)
    let index = try instance.exports[function: "grow"]!.invoke([]).first?.i32 ?? UInt32.max
    return index == UInt32.max ? nil : index
  }
}
