import PatchbayEncoding
import PatchbayFlight
import PatchbayHost

extension Recording {
  /// A flight file's history as a recording `patchbay replay` plays: the checkpoint as the
  /// steps that rebuild the app (swaps, screens, collections, then every instance's state as
  /// a `kept` step), then each action and change after it. Actions become text from their
  /// bytes alone (``WireValue/actionText``): no plugin is loaded to read a flight file.
  ///
  /// ```swift
  /// let recording = try Recording(flight: FlightLog(file: "/tmp/patchbay-flight/App-42-1.flight"))
  /// recording.steps       // [(1, .navigation(.push(node: "echo"), …)), (2, .kept(…)), (3, .action(…))]
  /// recording.stoppedBy   // "dev.patchbay.counter: reduce failed: …", when the app said so
  /// ```
  ///
  /// A replay numbers its screens from 1: the screens' numbers in the history (`echo#7`) are
  /// renumbered to the replay's. An action the plugin refused is kept, with the report that
  /// followed it as what stopped the run (``failedSteps``).
  public init(flight log: FlightLog) throws(AppError) {
    var reader = FlightHistoryReader(file: log.file)
    for record in log.history {
      try reader.read(record)
    }
    try reader.end()
    self.init(
      config: log.config, steps: reader.steps.enumerated().map { ($0.offset + 1, $0.element) },
      file: log.file, stoppedBy: reader.report)
  }
}

/// Turns a flight history into recording steps, one record at a time.
struct FlightHistoryReader {
  let file: String
  var steps: [RecordingLine.Step] = []
  var report: String?
  /// Each site's instance path, as the history names it.
  private var sites: [UInt16: String] = [:]
  /// Screens' numbers in the history → in the replay, for the screens of the checkpoint;
  /// later screens are numbered `offset` apart, as both count on from there.
  private var screens: [Int: Int] = [:]
  private var offset = 0

  init(file: String) {
    self.file = file
  }

  /// An action whose bytes are not a value: left out when it failed (it changed nothing), an
  /// error otherwise.
  private var undecodable: String?

  mutating func read(_ record: FlightRecord) throws(AppError) {
    if let undecodable = self.undecodable.take(), record != .failed {
      throw self.problem(undecodable)
    }
    switch record {
    case .checkpoint, .checkpointEnd, .failed:
      break
    case .routes(let stack, let presented, let next):
      let routes =
        stack.map { (route: $0, present: false) }
        + (presented.map { [($0, true)] } ?? [])
      for (index, (route, present)) in routes.enumerated() {
        guard let (node, number) = Self.screen(route) else {
          throw self.problem("the checkpoint names a screen '\(route)' that is not node#number")
        }
        self.screens[number] = index + 1
        self.steps.append(
          .navigation(present ? .present(node: node) : .push(node: node), state: nil))
      }
      self.offset = routes.count + 1 - Int(next)
    case .site(let id, let path, _, _):
      self.sites[id] = path
    case .action(let site, let source, let bytes):
      guard let path = self.sites[site] else {
        throw self.problem("an action of site \(site), which no site record defined before it")
      }
      guard let value = try? WireValue(decoding: bytes) else {
        self.undecodable = "an action of \(path) whose \(bytes.count) bytes do not decode"
        return
      }
      let from = ActionSource(flightNumber: source) ?? .command
      self.steps.append(.action(path: self.replayPath(path), text: value.actionText, source: from))
    case .kept(let path, let state):
      self.steps.append(.kept(path: self.replayPath(path), state: try self.text(of: state, path)))
    case .navigation(let name, let nodes, let state):
      guard let action = NavigationAction(name: name, nodes: nodes) else {
        throw self.problem("a navigation '\(name)' with \(nodes.count) node(s), which is none")
      }
      self.steps.append(.navigation(action, state: try self.text(of: state, name)))
    case .collection(let path, let id, let added, let state):
      self.steps.append(
        .collection(
          path: self.replayPath(path), id: id, added: added,
          state: try self.text(of: state, path)))
    case .swap(let feature, let plugin):
      self.steps.append(.swap(feature: feature, plugin: plugin))
    case .report(let text):
      self.report = text
    }
  }

  /// The history ended: an undecodable action last is what the run stopped in.
  mutating func end() throws(AppError) {
    if let undecodable = self.undecodable.take() { throw self.problem(undecodable) }
  }

  /// `echo#7` → ("echo", 7).
  static func screen(_ route: String) -> (String, Int)? {
    guard let hash = route.lastIndex(of: "#"), let number = Int(route[route.index(after: hash)...])
    else { return nil }
    return (String(route[..<hash]), number)
  }

  /// `path` with its screen (its first segment, `echo#7`) numbered as the replay numbers it.
  func replayPath(_ path: String) -> String {
    let first = path.prefix { $0 != "/" }
    guard let (node, number) = Self.screen(String(first)) else { return path }
    let replayed = self.screens[number] ?? number + self.offset
    return "\(node)#\(replayed)" + path.dropFirst(first.count)
  }

  func text(of state: [UInt8], _ what: String) throws(AppError) -> String {
    guard let value = try? WireValue(decoding: state) else {
      throw self.problem("a state of \(what) whose \(state.count) bytes do not decode")
    }
    return value.actionText
  }

  func text(of state: [UInt8]?, _ what: String) throws(AppError) -> String? {
    guard let state else { return nil }
    return try self.text(of: state, what) as String
  }

  func problem(_ text: String) -> AppError {
    AppError(.recording(file: self.file, line: nil, problem: text))
  }
}
