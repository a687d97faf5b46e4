import PatchbayABI

extension HostTable {
  /// `host->error`: the reason for the call that is failing, kept for it; from another thread
  /// (outside any call) it is logged instead (``HostContext/report(_:)``).
  static let error: @convention(c) (UnsafePointer<pb_host>?, UnsafePointer<CChar>?) -> Void = {
    host, message in
    HostTable.audit("host->error")
    Self.context(host)?.report(message.map { String(cString: $0) } ?? "(no reason given)")
  }

  /// `host->log`: a line for the app's log handler, with the feature's id and the level. Any
  /// thread.
  static let log:
    @convention(c) (UnsafePointer<pb_host>?, pb_log_level, UnsafePointer<CChar>?) -> Void = {
      host, level, message in
      HostTable.audit("host->log")
      Self.context(host)?.log(level, message.map { String(cString: $0) } ?? "")
    }
}
