import Foundation

/// An opaque origin (HTML Standard §7.1.1 "origin"): the origin of a document
/// that has no http(s) URL, such as `about:blank`, HTML given as text or a
/// custom scheme.
///
/// An opaque origin is equal only to itself, so nothing is same-site with
/// it. As a top-level site it partitions cookies under a key with its
/// ``nonce`` (Chromium's nonce partition keys): such cookies belong to the
/// one document and are never written to disk.
public struct OpaqueOrigin: Sendable, Hashable, CustomStringConvertible {
  /// What makes this origin unequal to every other one.
  public let nonce: UUID

  /// A fresh opaque origin, unequal to every other.
  public init() {
    nonce = UUID()
  }

  /// The origin of a nonce made earlier.
  public init(nonce: UUID) {
    self.nonce = nonce
  }

  /// `null`, as HTML serializes every opaque origin.
  public var description: String { "null" }
}
