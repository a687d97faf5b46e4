import Foundation
import Patchbay
import PatchbayABI
import PatchbayConfig
import PatchbayEncoding

/// Reading the app: its state as a value, its hash, and the screen on top rendered. Each read
/// takes what it needs from the app queue in one job.
extension AppRuntime {
  /// The whole app as a value: navigation and every instance's state.
  public func stateValue() throws(AppError) -> WireValue {
    let (navigation, instances) = self.executor.sync {
      (self.owned.navigation, self.owned.instances)
    }
    var features: [WireValue.Field] = []
    for entry in instances.entries {
      do {
        features.append(WireValue.Field(entry.path.description, try entry.handle.stateValue()))
      } catch {
        throw AppError(.failed(path: entry.path.description, reason: error.description))
      }
    }
    return .record(
      fields: (
        "navigation",
        .record(
          fields: ("stack", .list(navigation.stack.map { .string($0.description) })),
          ("presented", navigation.presented.map { .string($0.description) } ?? .nil))
      ),
      ("features", .record(features)))
  }

  /// The state of one instance, or of the whole app.
  public func state(_ path: String? = nil) throws(AppError) -> WireValue {
    guard let path else { return try self.stateValue() }
    let handle = try self.instance(path)
    do {
      return try handle.stateValue()
    } catch {
      throw AppError(.failed(path: path, reason: error.description))
    }
  }

  /// A hash of the whole app state (FNV-1a 64 over its encoding): equal states, equal hashes.
  public func stateHash() throws(AppError) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in try self.stateValue().bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The screen on top: the presented feature, else the top of the stack, else the root.
  public var currentPath: String {
    self.executor.sync { self.currentInstancePath.description }
  }

  /// ``currentPath``, on the app queue.
  var currentInstancePath: InstancePath {
    self.owned.navigation.presented?.path ?? self.owned.navigation.stack.last?.path
      ?? InstancePath(root: self.config.root)
  }

  /// The rendered view of the screen on top, with its `child` features' views below it.
  public func renderCurrent() throws(AppError) -> String {
    let (path, top, children) = self.executor.sync {
      let path = self.currentInstancePath
      return (path, self.owned.instances[path], self.owned.instances.descendants(of: path))
    }
    guard let top else { throw AppError(.noInstance(path: path.description, live: self.paths)) }
    var at = path
    do {
      var text = try top.render()
      for child in children {
        at = child.path
        let relative = child.path.segments.dropFirst(path.segments.count)
        text += "\n\n── \(relative.map(\.description).joined(separator: "/")) ──\n"
        text += try child.handle.render()
      }
      return text
    } catch {
      throw AppError(.failed(path: at.description, reason: error.description))
    }
  }
}
