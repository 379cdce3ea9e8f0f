import Foundation
import Testing

@testable import CookieCore

/// Every cookie's storage holds a ``Cookie/Fields``: its size is memory and
/// cache lines for each cookie of a jar.
@Suite("Cookie fields layout") struct CookieFieldsLayoutTests {
  /// The declaration order packs the one-byte fields after the partition
  /// key: 89 bytes, 96 with alignment (112 in the order of a cookie's
  /// properties).
  @Test func fieldsTakeNinetySixBytes() {
    #expect(MemoryLayout<Cookie.Fields>.size == 89)
    #expect(MemoryLayout<Cookie.Fields>.stride == 96)
  }
}
