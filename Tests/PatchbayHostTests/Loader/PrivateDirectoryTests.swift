import Foundation
import Testing

@testable import PatchbayHost
@testable import PatchbayLoader

/// Plugin copies go to a folder no one else can have made or can write.
@Suite struct PrivateDirectoryTests {
  /// A new folder of mode `mode` in the temporary folder; removed by the caller.
  func folder(mode: Int16 = 0o700) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("private-dir-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: mode])
    return folder
  }

  /// A pid that no process can have: the kernel's limit itself (pids are below it). Not a free
  /// one below it: on a busy machine pids wrap within seconds (pid_max is 32768 here), and a
  /// new process can take it while the test runs. Not a spawned child's:
  /// `Process.waitUntilExit` can hang on a Swift concurrency thread.
  func deadPID() throws -> Int32 {
    let pid =
      (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
      .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
    #expect(kill(pid, 0) != 0 && errno == ESRCH)
    return pid
  }

  @Test func thisProcessGetsAFreshFolderOfItsOwnWithMode0700() throws {
    let folder = try PrivateDirectory.forThisProcess()
    #expect(try PrivateDirectory.forThisProcess() == folder)
    let name = folder.lastPathComponent
    #expect(
      name.hasPrefix("patchbay-\(getpid())-") && name.count == "patchbay-\(getpid())-".count + 6)
    var info = stat()
    #expect(lstat(folder.path, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFDIR)
    #expect(info.st_uid == geteuid())
    #expect(info.st_mode & 0o777 == 0o700)
  }

  @Test func copiesAreReadAndRunByTheOwnerOnly() throws {
    let folder = try self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = try GenerationPath(directory: folder.appendingPathComponent("generations")).copy(
      URL(fileURLWithPath: try BuiltPlugins.path("Echo")), generation: 1)
    var info = stat()
    #expect(lstat(copy.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o500)
  }

  @Test(.enabled(if: geteuid() == 0, "making a folder another user owns needs root"))
  func aFolderAnotherUserMadeIsRefused() throws {
    let folder = try self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(chown(folder.path, 65534, 65534) == 0)  // nobody
    let error = #expect(throws: PrivateDirectory.NotPrivate.self) {
      try GenerationPath(directory: folder).copy(
        URL(fileURLWithPath: try BuiltPlugins.path("Echo")), generation: 1)
    }
    #expect(error?.description.contains("belongs to uid 65534, not to this user") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aFolderOthersCanWriteIsRefused() throws {
    let folder = try self.folder(mode: 0o777)
    defer { try? FileManager.default.removeItem(at: folder) }
    chmod(folder.path, 0o777)  // past the umask
    #expect(
      throws: PrivateDirectory.NotPrivate(
        description: "\(folder.path) has mode 777, open to others; refusing to put plugin "
          + "copies there. chmod 700 it, or remove it.")
    ) { try PrivateDirectory.check(folder) }
  }

  @Test func aLinkToAPrivateFolderIsRefused() throws {
    let folder = try self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathExtension("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
    defer { try? FileManager.default.removeItem(at: link) }
    let error = #expect(throws: PrivateDirectory.NotPrivate.self) {
      try PrivateDirectory.check(link)
    }
    #expect(error?.description.contains("is not a folder (a link or a file)") == true)
  }

  @Test func foldersOfProcessesThatAreGoneAreRemoved() throws {
    let parent = try self.folder()
    defer { try? FileManager.default.removeItem(at: parent) }
    let dead = try self.deadPID()
    let stale = ["patchbay-\(dead)-a1b2c3", "patchbay-\(dead)"]
    let kept = ["patchbay-\(getpid())-x1y2z3", "patchbay-1-q1w2e3", "patchbay-notapid", "other"]
    for name in stale + kept {
      try FileManager.default.createDirectory(
        at: parent.appendingPathComponent(name), withIntermediateDirectories: false)
    }
    try Data().write(to: parent.appendingPathComponent("patchbay-\(dead)-a1b2c3/libX.1.1.so"))
    let removed = PrivateDirectory.removeStale(in: parent)
    #expect(Set(removed) == Set(stale.map { parent.appendingPathComponent($0).path }))
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path)) == Set(kept))
  }

  @Test(.enabled(if: geteuid() == 0, "making a folder another user owns needs root"))
  func anotherUsersStaleFolderIsLeftAlone() throws {
    let parent = try self.folder()
    defer { try? FileManager.default.removeItem(at: parent) }
    let theirs = parent.appendingPathComponent("patchbay-\(try self.deadPID())-n0b0dy")
    try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
    #expect(chown(theirs.path, 65534, 65534) == 0)
    #expect(PrivateDirectory.removeStale(in: parent).isEmpty)
    #expect(FileManager.default.fileExists(atPath: theirs.path))
  }
}
