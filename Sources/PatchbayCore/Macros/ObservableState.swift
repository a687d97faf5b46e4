/// State a view may observe. Patchbay has no SwiftUI views, so `@ObservableState` only marks
/// the type (``ObservableState``) and leaves its storage alone: TCA state compiles unchanged,
/// and stays a plain value with the same memberwise initializer, equality and dumps.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   var count = 0
///   @ObservationStateIgnored var cache: [Int: String] = [:]
///   @Presents var destination: Destination.State?
/// }
/// ```
@attached(extension, conformances: ObservableState)
public macro ObservableState() =
  #externalMacro(module: "PatchbayMacros", type: "ObservableStateMacro")

/// Accepted for TCA source compatibility: Patchbay does not track observation.
@attached(peer, names: named(_))
public macro ObservationStateIgnored() =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")

/// Accepted for TCA source compatibility: Patchbay does not track observation.
@attached(peer, names: named(_))
public macro ObservationStateTracked() =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")

/// A state type marked `@ObservableState`.
public protocol ObservableState {}
