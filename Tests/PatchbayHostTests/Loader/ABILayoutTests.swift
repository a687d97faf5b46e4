import PatchbayABI
import Testing

/// The fields every host and plugin read first keep their places and their one type.
@Suite struct ABILayoutTests {
  @Test func versionsHaveOneTypeEverywhere() {
    #expect(MemoryLayout<pb_abi_version>.size == 2)
    #expect(type(of: pb_plugin_desc().abi_major) == pb_abi_version.self)
    #expect(type(of: pb_host().abi_major) == pb_abi_version.self)
    #expect(type(of: pb_host().abi_minor) == pb_abi_version.self)
  }

  /// The descriptor's first four fields are fixed forever (plugin.h).
  @Test func theDescriptorHeaderIsFixed() {
    #expect(MemoryLayout<pb_plugin_desc>.offset(of: \.magic) == 0)
    #expect(MemoryLayout<pb_plugin_desc>.offset(of: \.abi_major) == 4)
    #expect(MemoryLayout<pb_plugin_desc>.offset(of: \.abi_minor) == 6)
    #expect(MemoryLayout<pb_plugin_desc>.offset(of: \.struct_size) == 8)
  }

  /// The host table's header: a size, then the two versions, then the host's pointer.
  @Test func theHostTableHeaderIsPacked() {
    #expect(MemoryLayout<pb_host>.offset(of: \.abi_major) == 4)
    #expect(MemoryLayout<pb_host>.offset(of: \.abi_minor) == 6)
    #expect(MemoryLayout<pb_host>.offset(of: \.host_data) == 8)
  }

  /// A processor's period: what a C processor reads, where it reads it.
  @Test func theProcessStructIsWhereProcessorsReadIt() {
    #expect(MemoryLayout<pb_midi_event>.size == 8)
    #expect(MemoryLayout<pb_processor_event>.size == 24)
    #expect(MemoryLayout<pb_process>.offset(of: \.steady_time) == 16)
    #expect(MemoryLayout<pb_process>.offset(of: \.output) == 24)
  }
}
