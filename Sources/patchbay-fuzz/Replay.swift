// patchbay-fuzz built plainly: replays files through a parser and says which break it.
//
//     .build/debug/patchbay-fuzz midi crash-5f3a…            # exit 1 when one breaks it
#if !FUZZING
  import Foundation
  import PatchbayFuzzTargets

  @main
  struct Replay {
    static func main() {
      let arguments = CommandLine.arguments.dropFirst()
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1
      else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        complain("usage: patchbay-fuzz \(names) FILE…")
        exit(2)
      }
      var broken = 0
      for path in arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          complain("cannot read \(path)")
          exit(2)
        }
        do {
          try target.check([UInt8](data))
        } catch {
          print("\(path): \(error)")
          broken += 1
        }
      }
      print("\(arguments.count - 1 - broken) passed, \(broken) failed")
      exit(broken == 0 ? 0 : 1)
    }
  }
#endif
