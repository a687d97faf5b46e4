import CasePaths
import PatchbayComposition
import PatchbayCore

/// An action for a presented feature: its own action, or a request to dismiss it.
public enum PresentationAction<Action>: CasePathable {
  /// Dismisses the presented feature, after the parent saw the action.
  case dismiss
  /// An action for the presented feature.
  case presented(Action)

  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        }
      )
    }

    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        }
      )
    }

    /// A case of the presented action, reached through `presented`: `\.destination.add`
    /// means `\.destination.presented.add`.
    public subscript<AppendedAction>(
      dynamicMember keyPath: KeyPath<Action.AllCasePaths, AnyCasePath<Action, AppendedAction>>
    ) -> AnyCasePath<PresentationAction, AppendedAction> where Action: CasePathable {
      Self.presented(through: Action.allCasePaths[keyPath: keyPath])
    }

    /// `child`, reached through `presented`. Apart from the subscript so that its closures
    /// capture no conformance of `Action` (its metatype need not be `Sendable`).
    private static func presented<AppendedAction>(
      through child: AnyCasePath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, AppendedAction> {
      AnyCasePath(
        embed: { .presented(child.embed($0)) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return child.extract(from: action)
        }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
