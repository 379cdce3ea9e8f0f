import FoundationNetworking

extension LoadRequest.CachePolicy {
  /// The policy of a Foundation request's `cachePolicy` (a `WebPage` load
  /// of a `URLRequest`): `reloadIgnoringLocalAndRemoteCacheData` is a
  /// reload, as `reloadIgnoringLocalCacheData` (this cache is the only one).
  public init(_ policy: URLRequest.CachePolicy) {
    switch policy {
    case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
      self = .reloadIgnoringLocalCacheData
    case .reloadRevalidatingCacheData: self = .reloadRevalidatingCacheData
    case .returnCacheDataElseLoad: self = .returnCacheDataElseLoad
    case .returnCacheDataDontLoad: self = .returnCacheDataDontLoad
    default: self = .useProtocolCachePolicy
    }
  }
}
