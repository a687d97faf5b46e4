// patchbay-isolated: the process an isolated plugin runs in. The host starts it (never a
// user) with the channel's shared memory as descriptor 3, a pipe for crash reports as 4 and
// the host's lifeline as 5 (end of file there: the host is gone, and so is this process):
//
//   patchbay-isolated PLUGIN-FILE [--pin SHA256] [--allow-insecure-paths] [--provider FILE]…
//
// It loads the plugin with the host's loader (its trust, pinning and private copies), then
// serves the host's calls until the host ends it or the plugin crashes it.
import Foundation
import PatchbayChannel
import PatchbayCrash
import PatchbayIsolation
import PatchbayLoader

if pb_channel_die_with_host(5) != 0 { exit(2) }
let arguments = Array(CommandLine.arguments.dropFirst())
guard let file = arguments.first, let channel = pb_channel_map(3) else {
  FileHandle.standardError.write(
    Data("patchbay-isolated: started by hand, or without its channel; the host starts it\n".utf8))
  exit(2)
}
pb_crash_install(CrashReports.pluginCrashed)
pb_crash_report_isolated(4)

var loader = PluginLoader()
if let pin = arguments.firstIndex(of: "--pin"), pin + 1 < arguments.count {
  loader.pins[file] = arguments[pin + 1]
}
loader.allowsInsecurePaths = arguments.contains("--allow-insecure-paths")
let providers = arguments.indices.filter {
  arguments[$0] == "--provider" && $0 + 1 < arguments.count
}
.map { arguments[$0 + 1] }
let functions = ChildFunctions(files: providers, loader: loader)
let loaded = Result { () throws(PluginLoadError) -> LoadedPlugin in try loader.load(file) }
ChildServer(channel: channel, plugin: loaded, functions: functions).run()
