import CPatchbayABI

/// One action as `inspect` and the CLI see it: its name, its fields with their types, a summary
/// and who sends it. `@Feature` writes the list from `enum Action`, as the native SDK's does.
public struct ActionSchema {
  public let name: StaticString
  public let fields: [(name: StaticString, type: StaticString)]
  public let summary: StaticString
  public let sentBy: Sender?

  public init(
    _ name: StaticString, fields: [(StaticString, StaticString)] = [],
    summary: StaticString = "", sentBy: Sender? = nil
  ) {
    self.name = name
    self.fields = fields.map { (name: $0.0, type: $0.1) }
    self.summary = summary
    self.sentBy = sentBy
  }
}

/// Who sends an action people should not (`@SentBy(.effect)`), as in the native SDK.
public enum Sender {
  /// The host: MIDI, shared state, navigation's lifecycle.
  case host
  /// The feature's processor (not in a wasm plugin yet).
  case processor
  /// The feature's own effects.
  case effect

  var name: StaticString {
    switch self {
    case .host: "host"
    case .processor: "processor"
    case .effect: "effect"
    }
  }
}

/// Marks an action that people should not send (`@SentBy(.effect) case delayedIncrement`):
/// `inspect` shows it, and the CLI's completion leaves it out.
@attached(peer)
public macro SentBy(_ sender: Sender) =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")
