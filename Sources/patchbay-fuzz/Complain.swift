import Foundation

/// One line on stderr, named for the tool.
func complain(_ message: String) {
  FileHandle.standardError.write(Data("patchbay-fuzz: \(message)\n".utf8))
}
