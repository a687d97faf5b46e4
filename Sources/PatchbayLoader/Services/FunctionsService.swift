import PatchbayABI

/// How an instance's "patchbay.functions/1" resolves: provider, name, signature → a stable
/// pointer, or an error whose description says why (the plugin's `host->error` gets it).
public typealias FunctionResolver =
  @Sendable (_ provider: String, _ name: String, _ signature: String) throws -> UnsafeRawPointer

extension HostTable {
  /// "patchbay.functions/1" (patchbay/functions.h).
  nonisolated(unsafe) static let functionsService: UnsafeMutablePointer<pb_functions_service> = {
    let service = UnsafeMutablePointer<pb_functions_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_functions_service(
        struct_size: UInt32(MemoryLayout<pb_functions_service>.size),
        resolve: { host, provider, name, signature in
          HostTable.audit("functions->resolve")
          guard let context = HostTable.context(host) else { return nil }
          let provider = provider.map { String(cString: $0) } ?? ""
          let name = name.map { String(cString: $0) } ?? ""
          let signature = signature.map { String(cString: $0) } ?? ""
          guard let resolve = context.resolveFunction else {
            context.report(
              "\(provider).\(name): this instance runs outside an app, which resolves functions.")
            return nil
          }
          do {
            return unsafeBitCast(
              try resolve(provider, name, signature), to: (@convention(c) () -> Void).self)
          } catch {
            context.report("\(error)")
            return nil
          }
        }))
    return service
  }()
}
