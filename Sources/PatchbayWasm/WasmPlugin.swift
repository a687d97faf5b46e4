import PatchbayABI
import PatchbayLoader

/// WebAssembly modules as Patchbay plugins: a `.wasm` file in `[plugins] load` (or given to
/// `inspect`, `validate`, `run`) loads as a library does, and its features run in WasmKit's
/// interpreter, each instance in memory of its own, every call bounded by ``WasmLimits``.
///
/// ```swift
/// var loader = PluginLoader(searchPaths: [".build/wasm"])
/// WasmPlugin.install(into: &loader)
/// let echo = try loader.load("Echo.wasm")
/// echo.features[0].id          // "dev.patchbay.echo"
/// ```
///
/// A module is a plugin's C built for wasm32 with `Sources/PatchbayWasmGuest/patchbay_wasm.c`
/// beside it (`make wasm-plugins`); docs/WASM.md says when to choose it.
public enum WasmPlugin {
  /// The extension of the files it loads.
  public static let fileExtension = "wasm"

  /// Lets `loader` load `.wasm` files, each call of their features bounded by `limits`.
  public static func install(into loader: inout PluginLoader, limits: WasmLimits = WasmLimits()) {
    loader.fileKinds[Self.fileExtension] = Kind(limits: limits)
  }

  private struct Kind: PluginFileKind {
    let limits: WasmLimits

    func load(file: String, bytes: [UInt8], generation: Int, granted: Set<String>?)
      throws(PluginLoadError) -> LoadedPlugin
    {
      let module = try WasmModule(file: file, bytes: bytes, granted: granted)
      let describer = try WasmGuest(module, limits: self.limits)
      let runner = WasmFunctionRunner(module: module, limits: self.limits)
      let descriptor = try WasmDescriptor(describer, file: file) {
        (name, signature, index) throws(PluginLoadError) in
        try WasmFunctionExport(
          name: name, signature: signature, index: index, runner: runner, file: file
        ).pointer
      }
      module.keep(spare: describer)
      let plugin = try PluginLoader.validate(descriptor.native, file: file, generation: generation)
      {
        index, feature, vtable, _, label in
        WasmFeatureCode(
          module: module, index: index, id: String(cString: feature.pointee.id), vtable: vtable,
          limits: self.limits, crashLabel: label)
      }
      for function in plugin.functions { function.faults = runner }
      plugin.services = WasmModule.capabilities(of: module.module).map(\.rawValue)
      return plugin
    }
  }
}
