/// How much a plugin may write in one call, its state's snapshot and its view, and how long
/// a call into it may take. `[limits]` in an app's config.
///
/// ```toml
/// [limits]
/// state-bytes = 16777216   # 16 MiB: a larger snapshot fails (the swap, `state`, the diff)
/// view-bytes = 1048576     # 1 MiB: a larger view fails to render
/// call-seconds = 5         # a call on the app queue that has not returned by then is reported
/// audio-periods = 48       # a processor call that has not returned after this many periods
/// flight-actions = 10000   # the flight recorder keeps at least the last this many actions
/// # Isolated plugins ([plugins] isolate):
/// rollback-actions = 10    # a crash within this many actions of a swap swaps back…
/// rollback-seconds = 30    # …or within this many seconds of it
/// isolated-crashes = 3     # this many crashes or hangs…
/// isolated-crash-seconds = 60   # …within this many seconds disable the plugin
/// isolated-memory-mb = 0   # the address space of its process (RLIMIT_AS); 0: no limit
/// isolated-cpu-seconds = 0 # the CPU time of its process (RLIMIT_CPU); 0: no limit
/// ```
///
/// A call past its time is reported by the watchdog (``CrashReports/watch(_:periodSeconds:)``)
/// with the feature, the instance, the call and the action, and the app stops with exit code 3.
///
/// A plugin that writes past a limit gets a full writer (a short write, `core.h`), and the
/// call fails with a line naming the feature, the limit and this table; the instance keeps
/// running with its state. The limits keep one runaway plugin from taking the host's memory
/// and the terminal with it.
public struct OutputLimits: Sendable, Equatable {
  public var stateBytes: Int
  public var viewBytes: Int
  public var callSeconds: Int
  public var audioPeriods: Int
  /// How many of the last actions the flight recorder keeps, at least; 0 turns it off.
  public var flightActions = 10_000
  public var rollbackActions = 10
  public var rollbackSeconds = 30
  public var isolatedCrashes = 3
  public var isolatedCrashSeconds = 60
  public var isolatedMemoryMB = 0
  public var isolatedCPUSeconds = 0
  /// Instructions a call into a WebAssembly plugin may run (its fuel), and the linear memory
  /// an instance of one may grow to.
  public var wasmFuel = 100_000_000
  public var wasmMemoryMB = 64

  public init(
    stateBytes: Int = 16 << 20, viewBytes: Int = 1 << 20, callSeconds: Int = 5,
    audioPeriods: Int = 48
  ) {
    self.stateBytes = stateBytes
    self.viewBytes = viewBytes
    self.callSeconds = callSeconds
    self.audioPeriods = audioPeriods
  }

  /// 16 MiB of state, 1 MiB of view.
  public static let standard = OutputLimits()

  package static let range = 1_024...(1 << 31)

  /// Why a call failed that wrote more than `limit` bytes of `what` ("state", "view").
  package static func exceeded(_ what: String, _ limit: Int) -> String {
    "the \(what) is larger than the \(describe(limit)) limit; raise [limits] "
      + "\(what)-bytes in the app's config, or keep less in it"
  }

  /// "16 MiB", "1 KiB", "1500 bytes": a limit as people read it.
  static func describe(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
