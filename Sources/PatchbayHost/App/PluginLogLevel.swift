import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// How important a plugin's log message is (`pb_log_level`).
public enum PluginLogLevel: String, Sendable {
  case debug, info, warning, error

  init(_ level: pb_log_level) {
    switch level {
    case PB_LOG_DEBUG: self = .debug
    case PB_LOG_INFO: self = .info
    case PB_LOG_WARNING: self = .warning
    default: self = .error
    }
  }
}
