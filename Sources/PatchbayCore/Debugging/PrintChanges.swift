import CustomDump

extension Reducer {
  /// Prints each action and the state diff it caused.
  ///
  /// ```swift
  /// Store(initialState: App.State()) { App()._printChanges() }
  /// // received action:
  /// //   App.Action.counter(.increment)
  /// //   App.State(
  /// // −   count: 0
  /// // +   count: 1
  /// //   )
  /// ```
  public func _printChanges(
    _ printer: ChangePrinter<State, Action> = .customDump
  ) -> _ActionLogReducer<State, Action> {
    self.logActions { printer.print($0) }
  }
}

/// How ``Reducer/_printChanges(_:)`` writes a change.
public struct ChangePrinter<State, Action> {
  let print: (ActionLogEntry<State, Action>) -> Void

  /// A printer that formats each change and hands the text to `write`.
  public init(format: Format = .diff, write: @escaping (String) -> Void) {
    self.print = { entry in write(format.render(entry)) }
  }

  /// Action and state diff, to standard output.
  public static var customDump: Self {
    Self(format: .diff) { Swift.print($0) }
  }

  /// Action names only, to standard output.
  public static var actionLabels: Self {
    Self(format: .label) { Swift.print($0) }
  }

  /// What a printed change contains.
  public enum Format: Sendable {
    /// The action and the state diff (`(No state changes)` when there is none).
    case diff
    /// The action only.
    case label

    func render(_ entry: ActionLogEntry<State, Action>) -> String {
      var action = ""
      CustomDump.customDump(entry.action, to: &action, indent: 2)
      switch self {
      case .label:
        return "received action:\n\(action)"
      case .diff:
        let change =
          CustomDump.diff(entry.previousState, entry.state)?
          .split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")
          ?? "  (No state changes)"
        return "received action:\n\(action)\n\(change)"
      }
    }
  }
}
