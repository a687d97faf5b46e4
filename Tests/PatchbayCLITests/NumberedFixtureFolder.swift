import Foundation

/// A new private folder holding copies of the numbered fixture (Plugins/Fixtures/Numbered) as
/// `lib<Name>.so` — the file name picks what each copy exports — beside a link to the SDK they
/// load; the caller removes it.
///
/// ```swift
/// let folder = try numberedFixtureFolder(["SharedLeft", "SharedRight"], prefix: "replay")
/// ```
func numberedFixtureFolder(_ names: [String], prefix: String) throws -> URL {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(
    at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
  try FileManager.default.createSymbolicLink(
    at: folder.appendingPathComponent("libPatchbaySDK.so"),
    withDestinationURL: URL(fileURLWithPath: "\(CLI.directory)/libPatchbaySDK.so"))
  for name in names {
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libTestFixtureNumbered.so",
      toPath: folder.appendingPathComponent("lib\(name).so").path)
  }
  return folder
}
