import CLilv
import Foundation
import Synchronization

/// The host's URID map and unmap (LV2's `urid:map` and `urid:unmap` features): one per
/// process, so every instance gives a URI the same number, and so state and events mean the
/// same across a swap.
///
/// ```swift
/// let midi = LV2URIDMap.shared.map("http://lv2plug.in/ns/ext/midi#MidiEvent")   // 1, 2, …
/// LV2URIDMap.shared.unmap(midi)   // the URI again
/// ```
///
/// Plugins map URIs when they are instantiated, not in `run`; the lock here is never taken on
/// the audio thread.
public final class LV2URIDMap: @unchecked Sendable {
  public static let shared = LV2URIDMap()

  private struct Table {
    var ids: [String: LV2_URID] = [:]
    /// The URIs, by URID − 1, each a C string that lives as long as the process.
    var uris: [UnsafeMutablePointer<CChar>] = []
  }
  private let table = Mutex(Table())
  /// The two features' data and descriptors, for instances to pass to `instantiate`.
  let mapFeature: UnsafeMutablePointer<LV2_URID_Map>
  let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

  private init() {
    self.mapFeature = .allocate(capacity: 1)
    self.unmapFeature = .allocate(capacity: 1)
    let handle = Unmanaged.passUnretained(self).toOpaque()
    self.mapFeature.initialize(to: LV2_URID_Map(handle: handle, map: uridMap))
    self.unmapFeature.initialize(to: LV2_URID_Unmap(handle: handle, unmap: uridUnmap))
  }

  /// The URID of `uri`, a new one the first time.
  public func map(_ uri: String) -> LV2_URID {
    self.table.withLock { table in
      if let id = table.ids[uri] { return id }
      table.uris.append(strdup(uri))
      let id = LV2_URID(table.uris.count)
      table.ids[uri] = id
      return id
    }
  }

  /// The URI `id` stands for; nil for 0 or an id never given.
  public func unmap(_ id: LV2_URID) -> String? {
    self.unmapPointer(id).map { String(cString: $0) }
  }

  fileprivate func unmapPointer(_ id: LV2_URID) -> UnsafePointer<CChar>? {
    self.table.withLock { table in
      guard id > 0, Int(id) <= table.uris.count else { return nil }
      return UnsafePointer(table.uris[Int(id) - 1])
    }
  }
}

private func uridMap(_ handle: LV2_URID_Map_Handle?, _ uri: UnsafePointer<CChar>?) -> LV2_URID {
  guard let handle, let uri else { return 0 }
  return Unmanaged<LV2URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
}

private func uridUnmap(_ handle: LV2_URID_Unmap_Handle?, _ id: LV2_URID) -> UnsafePointer<CChar>? {
  guard let handle else { return nil }
  return Unmanaged<LV2URIDMap>.fromOpaque(handle).takeUnretainedValue().unmapPointer(id)
}
