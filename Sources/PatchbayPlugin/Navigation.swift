import Patchbay
import PatchbayABI
import PatchbayEncoding

/// A navigation a feature asks its host for. Features never navigate directly
/// (docs/ARCHITECTURE.md, "Navigation as state"): they return ``Effect/navigate(_:)``, and the
/// host's router applies it after the action.
///
/// ```swift
/// case .quizFinished(let score):
///   return .navigate(.push("results", state: Results.State(score: score)))
/// ```
///
/// Nodes are keys of the app's config (`[[feature]] key = "results"`).
public enum Navigation: Sendable {
  /// Pushes a `stack` feature, optionally starting from `state`.
  case push(String, state: (any Encodable & Sendable)? = nil)
  /// Presents a `presented` feature, optionally starting from `state`.
  case present(String, state: (any Encodable & Sendable)? = nil)
  case pop
  case popToRoot
  case dismiss
}

extension Effect {
  /// Asks the host to navigate after this action.
  public static func navigate(_ navigation: Navigation) -> Self {
    .request(navigation)
  }
}

extension HostConnection {
  /// Hands an effect's host request to the host: navigation through
  /// "patchbay.navigation/1"; anything else is logged as unsupported.
  @usableFromInline
  func handle(request payload: any Sendable, from featureID: String) {
    guard let navigation = payload as? Navigation else {
      self.log(
        PB_LOG_ERROR, "\(featureID): this host handles no request of type \(type(of: payload))")
      return
    }
    guard let getService = self.host.pointee.get_service,
      let raw = getService(self.host, PB_SERVICE_NAVIGATION)
    else {
      self.log(PB_LOG_WARNING, "\(featureID): the host offers no navigation; \(navigation) ignored")
      return
    }
    let service = raw.assumingMemoryBound(to: pb_navigation_service.self)
    guard let navigate = service.pointee.navigate else { return }
    func call(_ kind: pb_navigation_kind, _ node: String?, _ state: (any Encodable & Sendable)?) {
      var bytes: [UInt8]?
      if let state {
        do {
          bytes = try WireValueEncoder().encode(state).bytes
        } catch {
          self.log(
            PB_LOG_ERROR, "\(featureID): cannot encode the state for \(node ?? ""): \(error)")
          return
        }
      }
      (node ?? "").withCString { node in
        if let bytes {
          bytes.withUnsafeBufferPointer {
            navigate(self.host, kind, node, $0.baseAddress, $0.count)
          }
        } else {
          navigate(self.host, kind, node, nil, 0)
        }
      }
    }
    switch navigation {
    case .push(let node, let state): call(PB_NAVIGATE_PUSH, node, state)
    case .present(let node, let state): call(PB_NAVIGATE_PRESENT, node, state)
    case .pop: call(PB_NAVIGATE_POP, nil, nil)
    case .popToRoot: call(PB_NAVIGATE_POP_TO_ROOT, nil, nil)
    case .dismiss: call(PB_NAVIGATE_DISMISS, nil, nil)
    }
  }
}
