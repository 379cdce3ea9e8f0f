/// What the HTTP cache did for one hop (``LoadHop/cacheOutcome``), as
/// `sitedata fetch -v` shows it.
public enum CacheOutcome: String, Sendable, Hashable, CustomStringConvertible {
  /// A stored response answered; nothing was sent.
  case hit
  /// A stored response was validated with a conditional request and the
  /// server's `304` let it answer (its header fields updated).
  case revalidated
  /// The response came from the network (no usable stored response, or
  /// a reload); it was stored if it may be.
  case miss

  public var description: String { rawValue }
}
