import PatchbayEncoding
import Testing

@Suite struct WireValueJSONTests {
  @Test func compactJSON() {
    let value = WireValue.record(
      fields: ("count", 2), ("name", "a\"b"), ("ratio", 0.5), ("on", true), ("none", .nil),
      ("steps", .list([1, 2])), ("last", .action("setStep", ("by", 5))))
    #expect(
      value.json()
        == #"{"count":2,"name":"a\"b","ratio":0.5,"on":true,"none":null,"steps":[1,2],"last":{"setStep":{"by":5}}}"#
    )
  }

  @Test func prettyJSONIndentsAndKeepsOrder() {
    let value = WireValue.record(
      fields: ("b", 1), ("a", .list([])), ("c", .record(fields: ("x", "\u{1}"))))
    #expect(
      value.json(pretty: true) == """
        {
          "b": 1,
          "a": [],
          "c": {
            "x": "\\u0001"
          }
        }
        """)
  }
}
