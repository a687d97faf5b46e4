import PatchbayPlugin

/// A practice timer's state as a user edits it, one build per kind of edit, for the tests of
/// state across a swap (docs/SWAP.md, "State across a swap"): `libEvolve.so` exports the
/// first build, `libEvolve<Kind>.so` the build after one edit (Entry.swift picks it by the
/// file's name). Every build is `dev.patchbay.fixture.evolve`, schema 1, with no `migrate`.
@Feature
public struct Evolve {
  public static let id = "dev.patchbay.fixture.evolve"

  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60
    public var label = "practice"
    public var mode = Mode.count
    public var timer = Timer()
    public var laps: [Lap] = []
    public var note = ""
  }

  public enum Mode: String, Codable, Equatable, Sendable { case count, rest }
  public struct Timer: Codable, Equatable, Sendable { public var ticks = 0 }
  public struct Lap: Codable, Equatable, Sendable { public var number = 0 }

  public enum Action: Codable, Equatable, Sendable {
    /// Sets every field to a value of its own, so a test can tell kept from started
    case fill
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state = State(
      seconds: 90, label: "scales", mode: .rest, timer: Timer(ticks: 7),
      laps: [Lap(number: 1), Lap(number: 2)], note: "slow")
    return .none
  }
}

/// A build of ``Evolve`` after one edit of its `State`: the same id and actions, no code.
public protocol EvolveBuild: PluginFeature where Action == Evolve.Action {}

extension EvolveBuild {
  public static var id: String { Evolve.id }
  public static var actions: [ActionSchema] { Evolve.actions }
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// `var goal = 10` added.
public struct EvolveAdded: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = "", goal = 10
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `note` removed.
public struct EvolveRemoved: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = []
  }
  public static var initialState: State { State() }
  public init() {}
}

/// The fields in another order.
public struct EvolveReordered: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var note = "", laps: [Evolve.Lap] = [], timer = Evolve.Timer()
    public var mode = Evolve.Mode.count, label = "practice", seconds = 60
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `label` made optional.
public struct EvolveOptional: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label: String? = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `seconds` widened from `Int` to `Double`.
public struct EvolveWidened: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60.0, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// A case added to `Mode`.
public struct EvolveCaseAdded: EvolveBuild {
  public enum Mode: String, Codable, Equatable, Sendable { case count, rest, sprint }
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `var lap = 1` added to the nested `Timer`.
public struct EvolveNestedAdded: EvolveBuild {
  public struct Timer: Codable, Equatable, Sendable { public var ticks = 0, lap = 1 }
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `label` changed from `String` to `Int`: refused, naming the field and both types.
public struct EvolveRetyped: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = 0, mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// The case `rest` removed from `Mode`, while the state holds it: refused.
public struct EvolveCaseRemoved: EvolveBuild {
  public enum Mode: String, Codable, Equatable, Sendable { case count }
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `label` renamed `title`, unmarked: refused, as the old label would be lost.
public struct EvolveRenamed: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, title = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `label` renamed `title`, marked: the label is read into the title.
public struct EvolveRenamedMarked: EvolveBuild {
  public typealias State = EvolveRenamed.State
  public static var initialState: State { State() }
  public static let renamedStateFields = ["title": "label"]
  public init() {}
}

/// `var split = 0` added to the collection's element `Lap`: `@Feature` lists `Lap`'s start
/// value (``PluginFeature/stateTemplates``), which each element's new field takes.
@Feature
public struct EvolveElementAdded {
  public static let id = "dev.patchbay.fixture.evolve"

  public struct Lap: Codable, Equatable, Sendable {
    public var number = 0
    public var split = 0
  }

  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Lap] = [], note = ""
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Sets every field to a value of its own
    case fill
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// `seconds` widened from `Int` to `Int64`.
public struct EvolveInt64: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds: Int64 = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `var coach: String?` added, with no value: nil.
public struct EvolveOptionalAdded: EvolveBuild {
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
    public var coach: String?
  }
  public static var initialState: State { State() }
  public init() {}
}

/// `var level = Level.easy` added: a field of a new enum type.
public struct EvolveEnumFieldAdded: EvolveBuild {
  public enum Level: String, Codable, Equatable, Sendable { case easy, hard }
  public struct State: Codable, Equatable, Sendable {
    public var seconds = 60, label = "practice", mode = Evolve.Mode.count
    public var timer = Evolve.Timer(), laps: [Evolve.Lap] = [], note = ""
    public var level = Level.easy
  }
  public static var initialState: State { State() }
  public init() {}
}
