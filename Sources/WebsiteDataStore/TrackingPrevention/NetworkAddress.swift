import Glibc

/// An IPv4 or IPv6 address as bytes (parsed with `inet_pton(3)`), for
/// tracking prevention's IP address cloaking rule: how many leading bits
/// two addresses share (WebKit's `IPAddress::matchingNetMaskLength`).
package struct NetworkAddress: Hashable {
  /// 4 bytes (IPv4) or 16 (IPv6), in network order.
  package let bytes: [UInt8]

  /// Parses a textual address (`127.0.0.1`, `::1`); `nil` for anything
  /// else.
  package init?(_ text: String) {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      bytes = withUnsafeBytes(of: &v4) { Array($0) }
      return
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
    bytes = withUnsafeBytes(of: &v6) { Array($0) }
  }

  package var isIPv4: Bool { bytes.count == 4 }

  /// The leading bits the two addresses share; 0 for addresses of two
  /// families.
  package func matchingPrefixLength(with other: NetworkAddress) -> Int {
    guard bytes.count == other.bytes.count else { return 0 }
    var bits = 0
    for (mine, theirs) in zip(bytes, other.bytes) {
      let difference = mine ^ theirs
      if difference == 0 {
        bits += 8
        continue
      }
      return bits + difference.leadingZeroBitCount
    }
    return bits
  }

  /// Whether `other` lies outside this address's network as WebKit draws
  /// it: fewer than 16 leading bits shared for IPv4, 64 for IPv6 (and any
  /// address of the other family).
  package func isOutsideNetwork(of other: NetworkAddress) -> Bool {
    matchingPrefixLength(with: other) < (isIPv4 ? 16 : 64)
  }
}
