import CJACK

/// libjack's own messages, which it prints to stderr from any thread (a lost server's socket
/// errors, a retry). Patchbay says what happened in its own one line instead
/// (``JACKOutput/serverLostReason``, ``JACKStatus``), so they are silenced.
enum JACKMessages {
  static func silence() {
    jack_set_error_function { _ in }
    jack_set_info_function { _ in }
  }
}
