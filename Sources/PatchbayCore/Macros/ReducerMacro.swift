/// Makes a type a reducer, as TCA's `@Reducer` does, so TCA features compile unchanged.
///
/// On a struct it adds the `Reducer` conformance, `@CasePathable` to a nested `enum Action`
/// (and `@CasePathable @dynamicMemberLookup` to a nested `enum State`), and the reducer
/// builder to `body`:
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// On an enum whose cases each hold a reducer, it writes the `State` and `Action` enums and a
/// `body` that runs each case's reducer in its case (a ``CaseReducer``):
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case add(AddItem)
///   case edit(EditItem)
/// }
/// extension Destination.State: Equatable {}
/// ```
///
/// A case without a value, or one marked `@ReducerCaseIgnored` / `@ReducerCaseEphemeral`, is
/// state only (its action case holds `Never`).
@attached(member, names: named(State), named(Action), named(body), named(Body))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() = #externalMacro(module: "PatchbayMacros", type: "ReducerMacro")

/// `@Reducer` with conformances for the `State` and `Action` an enum reducer generates (TCA's
/// older form; `extension Destination.State: Equatable {}` does the same).
@attached(member, names: named(State), named(Action), named(body), named(Body))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer(state: _SynthesizedConformance..., action: _SynthesizedConformance...) =
  #externalMacro(module: "PatchbayMacros", type: "ReducerMacro")

/// A conformance `@Reducer(state:action:)` adds to generated enums.
public struct _SynthesizedConformance: Sendable {
  public static let codable = Self()
  public static let decodable = Self()
  public static let encodable = Self()
  public static let equatable = Self()
  public static let hashable = Self()
  public static let sendable = Self()
}

/// Marks a case of a `@Reducer enum` as plain state with no reducer (an alert's data, say).
@attached(peer, names: named(_))
public macro ReducerCaseIgnored() =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")

/// Marks a case of a `@Reducer enum` as ephemeral state with no reducer.
@attached(peer, names: named(_))
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")
