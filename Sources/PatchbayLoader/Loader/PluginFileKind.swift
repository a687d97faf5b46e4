/// What loads a plugin file that is not a shared library, by its extension: a `.wasm` module
/// (PatchbayWasm's). The loader finds the file, checks who could write it and its pin, and
/// reads it whole; the kind makes the plugin from the bytes it read.
public protocol PluginFileKind: Sendable {
  /// The plugin in `bytes`, read from `file`, as its load number `generation` in this process,
  /// allowed what `[sandbox]` grants it (nil: anything its kind can give); throws, in one line
  /// naming the file, why it is not one, or what it asks for that it was not granted.
  func load(file: String, bytes: [UInt8], generation: Int, granted: Set<String>?)
    throws(PluginLoadError) -> LoadedPlugin
}
