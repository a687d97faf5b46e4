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

  /// 1.0 hosts had 32-bit versions in pb_host; with 16-bit ones and `reserved`, every field a
  /// 1.0 plugin reads is where it was, and reads the same value (little-endian major, minor 0).
  @Test func theHostTableKeepsTheOneZeroLayout() {
    #expect(MemoryLayout<pb_host>.offset(of: \.abi_major) == 4)
    #expect(MemoryLayout<pb_host>.offset(of: \.host_data) == 16)
    #expect(MemoryLayout<pb_host>.offset(of: \.get_service) == 24)
    #expect(MemoryLayout<pb_host>.size == 56)
  }
}
