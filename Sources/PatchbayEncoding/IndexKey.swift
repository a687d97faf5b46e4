/// The coding key of a list element: its position.
struct IndexKey: CodingKey {
  let intValue: Int?
  let stringValue: String

  init(_ index: Int) {
    self.intValue = index
    self.stringValue = "\(index)"
  }

  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.init(intValue) }
}
