import CPatchbayChannel
import CPatchbayCrash
// patchbay-isolated: the process an isolated plugin runs in. The host starts it (never a
// user) with the channel's shared memory as descriptor 3, a pipe for crash reports as 4 and
// the host's lifeline as 5 (end of file there: the host is gone, and so is this process):
//
//   patchbay-isolated PLUGIN-FILE [--pin SHA256] [--allow-insecure-paths] [--provider FILE]…
//     [--allow sockets,exec,ptrace] [--memory-mb N] [--cpu-seconds N] [--wasm-fuel N]
//     [--wasm-memory-mb N]
//
// It loads the plugin with the host's loader (its trust, pinning and private copies), then
// serves the host's calls until the host ends it or the plugin crashes it.
import Foundation
import PatchbayIsolation
import PatchbayLV2Feature
import PatchbayLoader
import PatchbayWasm

if pb_channel_die_with_host(5) != 0 { exit(2) }
let arguments = Array(CommandLine.arguments.dropFirst())
guard let file = arguments.first, let channel = pb_channel_map(3) else {
  FileHandle.standardError.write(
    Data("patchbay-isolated: started by hand, or without its channel; the host starts it\n".utf8))
  exit(2)
}
pb_crash_install(CrashReports.pluginCrashed)
pb_crash_report_isolated(4)

/// The value after `flag`, if given.
func argument(_ flag: String) -> String? {
  arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
// The sandbox ([sandbox] in host-config lifts parts of it) and [limits] isolated-memory-mb and
// isolated-cpu-seconds: past a limit the kernel ends the process (an allocation fails and the
// plugin crashes, or SIGXCPU), and the host reports it as a crash.
let allowed = (argument("--allow") ?? "").split(separator: ",").reduce(UInt32(0)) {
  switch $1 {
  case "sockets": $0 | UInt32(PB_ALLOW_SOCKETS)
  case "exec": $0 | UInt32(PB_ALLOW_EXEC)
  case "ptrace": $0 | UInt32(PB_ALLOW_PTRACE)
  default: $0
  }
}
let megabytes = argument("--memory-mb").flatMap(UInt64.init) ?? 0
let seconds = argument("--cpu-seconds").flatMap(UInt64.init) ?? 0
if pb_channel_confine(allowed, megabytes << 20, seconds) != 0 {
  FileHandle.standardError.write(
    Data(
      "patchbay-isolated: cannot confine the process: \(String(cString: strerror(errno)))\n".utf8))
  exit(2)
}

var loader = PluginLoader()
// `lv2:URI`: the host loaded it first and refused what it would not run, so what it hands
// over runs here as it is.
if file.hasPrefix("\(LV2FeaturePlugin.scheme):") {
  LV2FeaturePlugin.install(
    into: &loader,
    allowingNonRealtime: [String(file.dropFirst(LV2FeaturePlugin.scheme.count + 1))])
}
// A provider of functions may be a WebAssembly module (which the host never isolates): the
// plugin's imports from it resolve here, in this process's own instance of it, bounded by the
// app's [limits] wasm-fuel and wasm-memory-mb as in the app's process.
var wasmLimits = WasmLimits()
if let fuel = argument("--wasm-fuel").flatMap(UInt64.init) { wasmLimits.fuel = fuel }
if let megabytes = argument("--wasm-memory-mb").flatMap(Int.init) {
  wasmLimits.memoryBytes = megabytes << 20
}
WasmPlugin.install(into: &loader, limits: wasmLimits)
if let pin = argument("--pin") { loader.pins[file] = pin }
loader.allowsInsecurePaths = arguments.contains("--allow-insecure-paths")
let providers = arguments.indices.filter {
  arguments[$0] == "--provider" && $0 + 1 < arguments.count
}
.map { arguments[$0 + 1] }
let functions = ChildFunctions(files: providers, loader: loader)
let loaded = Result { () throws(PluginLoadError) -> LoadedPlugin in try loader.load(file) }
ChildServer(channel: channel, plugin: loaded, functions: functions).run()
