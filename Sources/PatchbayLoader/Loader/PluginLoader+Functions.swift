import PatchbayABI
import PatchbayFunctions

extension PluginLoader {
  /// Reads and checks the functions a plugin exports (patchbay/functions.h): none when its
  /// descriptor is 2.0-sized; otherwise each must have a unique name, a signature that parses
  /// and a function.
  static func validateFunctions(
    _ descriptor: UnsafePointer<pb_plugin_desc>, plugin: LoadedPlugin, file: String
  ) throws(PluginLoadError) -> [LoadedFunction] {
    guard Int(descriptor.pointee.struct_size) >= MemoryLayout<pb_plugin_desc>.size else {
      return []
    }
    try requireCount(
      descriptor.pointee.function_count, limit: Limits.functions,
      array: descriptor.pointee.functions.map(UnsafeRawPointer.init), of: "functions", file: file)
    var functions: [LoadedFunction] = []
    for index in 0..<Int(descriptor.pointee.function_count) {
      guard let pointer = descriptor.pointee.functions?[index] else {
        throw PluginLoadError(file: file, "function \(index) of the descriptor is NULL.")
      }
      let desc = pointer.pointee
      guard Int(desc.struct_size) >= MemoryLayout<pb_function_desc>.size else {
        throw PluginLoadError(
          file: file,
          "function \(index): pb_function_desc.struct_size is \(desc.struct_size), smaller than "
            + "the \(MemoryLayout<pb_function_desc>.size) bytes ABI 2.1 requires.")
      }
      let name = string(desc.name)
      guard !name.isEmpty else {
        throw PluginLoadError(file: file, "function \(index) has no name. Give it one.")
      }
      guard !functions.contains(where: { $0.name == name }) else {
        throw PluginLoadError(
          file: file, "exports function '\(name)' twice. Give each function its own name.")
      }
      let signature: FunctionSignature
      do {
        signature = try FunctionSignature(parsing: string(desc.signature))
      } catch {
        throw PluginLoadError(
          file: file,
          "function '\(name)': signature '\(string(desc.signature))' does not parse: \(error). "
            + "See patchbay/functions.h for the grammar.")
      }
      guard let function = desc.function else {
        throw PluginLoadError(file: file, "function '\(name)' has no function pointer.")
      }
      functions.append(
        LoadedFunction(
          name: name, signature: signature, summary: string(desc.summary),
          pointer: unsafeBitCast(function, to: UnsafeRawPointer.self), plugin: plugin))
    }
    return functions
  }
}
