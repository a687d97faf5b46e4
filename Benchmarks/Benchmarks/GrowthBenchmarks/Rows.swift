import Benchmark
import BenchmarkSupport
import Foundation
import Patchbay
import PatchbayConfig
import PatchbayHost
import PatchbayLoader

/// One row of a list: a counter with an id.
struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var count = 0
  }
  enum Action: Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// A list of rows, TCA's way: `forEach` over an identified array, rows added and removed by id.
struct Rows: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<Row.State> = [] }
  @CasePathable enum Action: Equatable {
    case rows(IdentifiedActionOf<Row>)
    case add(id: Int)
    case remove(id: Int)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let id): state.rows.append(Row.State(id: id))
      case .remove(let id): state.rows.remove(id: id)
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Row() }
  }

  static func store(rows: Int) -> Store<State, Action> {
    Store(
      initialState: State(rows: IdentifiedArray(uniqueElements: (0..<rows).map { .init(id: $0) }))
    ) {
      Rows()
    }
  }
}

/// An app of a Counter (`top`) with a collection of Counters under it (`top/rows#<id>`), the
/// root build's plugin, with `rows` of them.
func rowsApp(rows: Int) throws -> AppRuntime {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "patchbay-growth-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let file = folder.appendingPathComponent("rows.toml").path
  let config = try AppConfig(
    parsing: """
      [app]
      name = "Rows"
      root = "top"

      [plugins]
      load = ["Counter"]

      [[feature]]
      key = "top"
      id = "dev.patchbay.counter"

      [[feature]]
      key = "rows"
      id = "dev.patchbay.counter"
      parent = "top"
      kind = "collection"
      """, file: file)
  let loader = PluginLoader(searchPaths: [BenchmarkRun.rootBuild.path])
  let app = try AppRuntime(config: config, registry: try config.loadPlugins(with: loader))
  for id in 0..<rows { try app.add(to: "top/rows", id: "\(id)") }
  return app
}

/// The row an operation at `size` acts on: the middle one, so that nothing is first or last.
func middle(_ size: Int) -> Int { size / 2 }

/// The rows a remove-and-add benchmark takes out, one after another from the middle on: each
/// goes back at the end, so the next is still in the middle until every row has had its turn.
final class RowCycle: @unchecked Sendable {
  private var next: Int
  private let count: Int

  init(count: Int) { (self.next, self.count) = (middle(count), count) }

  func take() -> Int {
    defer { self.next = (self.next + 1) % self.count }
    return self.next
  }
}

/// A list's rows alone, held where a benchmark changes them in place (no copy on write).
final class RowArray: @unchecked Sendable {
  var rows: IdentifiedArrayOf<Row.State>

  init(count: Int) {
    self.rows = IdentifiedArray(uniqueElements: (0..<count).map { .init(id: $0) })
  }
}

let rowSizes = Growth.decades(to: 100_000)

let rowBenchmarks: @Sendable () -> Void = {
  Growth("rows: send to one row, in process", per: "rows", sizes: rowSizes).register {
    Rows.store(rows: $0)
  } measure: { benchmark, store in
    let action = Rows.Action.rows(.element(id: middle(store.state.rows.count), action: .increment))
    for _ in benchmark.scaledIterations { store.send(action) }
  }

  Growth("rows: remove and add a row, in process", per: "rows", sizes: rowSizes).register(
    configuration: Growth.perOperation
  ) {
    (Rows.store(rows: $0), RowCycle(count: $0))
  } measure: { benchmark, subject in
    for _ in benchmark.scaledIterations {
      let id = subject.1.take()
      subject.0.send(.remove(id: id))
      subject.0.send(.add(id: id))
    }
  }

  // The same on the identified array alone, no store: what `remove(id:)` costs at N. It
  // re-indexes every later row in the array's hash table (swift-identified-collections), so
  // the curve above can be no flatter than this one.
  Growth("reference: remove and add a row of an identified array", per: "rows", sizes: rowSizes)
    .register(configuration: Growth.perOperation) {
      (RowArray(count: $0), RowCycle(count: $0))
    } measure: { benchmark, subject in
      for _ in benchmark.scaledIterations {
        let id = subject.1.take()
        subject.0.rows.remove(id: id)
        subject.0.rows.append(Row.State(id: id))
      }
    }

  Growth("rows: send to one row, through the host", per: "rows", sizes: rowSizes).register {
    (try rowsApp(rows: $0), "top/rows#\(middle($0))")
  } measure: { benchmark, subject in
    let (app, path) = subject
    try app.perform {
      for _ in benchmark.scaledIterations { try app.send(path, "increment") }
    }
  }

  Growth("rows: remove and add a row, through the host", per: "rows", sizes: rowSizes).register(
    configuration: Growth.perOperation
  ) {
    (try rowsApp(rows: $0), RowCycle(count: $0))
  } measure: { benchmark, subject in
    for _ in benchmark.scaledIterations {
      let id = "\(subject.1.take())"
      try subject.0.remove(from: "top/rows", id: id)
      try subject.0.add(to: "top/rows", id: id)
    }
  }

  // What a row costs in memory: the heap its instance holds (the host's bookkeeping, the
  // plugin's instance and state), measured over adding them all.
  Growth("rows: heap per row, through the host", per: "rows", sizes: [100, 10_000, 100_000])
    .registerFigure("bytes per row") { rows in
      let app = try rowsApp(rows: 0)
      let before = heapBytesInUse()
      for id in 0..<rows { try app.add(to: "top/rows", id: "\(id)") }
      return (heapBytesInUse() - before) / rows
    }
}
