import Patchbay  // with TCA: import ComposableArchitecture

/// Looks up a description of a chord from a slow service; the user can cancel, and changing
/// the root note cancels a lookup in flight.
@Reducer
struct ChordLookup {
  @ObservableState
  struct State: Equatable {
    var description: String?
    var isLookingUp = false
    var root = 60
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case described(Result<String, any Error>)
    case lookUpButtonTapped
  }

  @Dependency(\.chords) var chords

  private enum CancelID { case lookup }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.root):
        state.description = nil
        state.isLookingUp = false
        return .cancel(id: CancelID.lookup)

      case .binding:
        return .none

      case .cancelButtonTapped:
        state.isLookingUp = false
        return .cancel(id: CancelID.lookup)

      case let .described(.success(description)):
        state.description = description
        state.isLookingUp = false
        return .none

      case .described(.failure):
        state.isLookingUp = false
        return .none

      case .lookUpButtonTapped:
        state.description = nil
        state.isLookingUp = true
        return .run { [root = state.root] send in
          await send(.described(Result { try await self.chords.describe(root) }))
        }
        .cancellable(id: CancelID.lookup)
      }
    }
  }
}

/// Describes the major triad on a MIDI note. The live value works it out here; a real one
/// might ask a theory service.
@DependencyClient
struct ChordClient {
  var describe: @Sendable (_ root: Int) async throws -> String
}

extension ChordClient: DependencyKey {
  static let liveValue = ChordClient(describe: { root in
    let names = ["C", "C♯", "D", "E♭", "E", "F", "F♯", "G", "A♭", "A", "B♭", "B"]
    let name = { (note: Int) in names[((note % 12) + 12) % 12] }
    return "\(name(root)) major: \(name(root)), \(name(root + 4)), \(name(root + 7))"
  })
}

extension DependencyValues {
  var chords: ChordClient {
    get { self[ChordClient.self] }
    set { self[ChordClient.self] = newValue }
  }
}
