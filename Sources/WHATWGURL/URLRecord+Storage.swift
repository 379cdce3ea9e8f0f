extension URLRecord {
  /// The fields of a URL record, immutable and shared by every copy of the
  /// record, plus what cookie rules derive from them on every request
  /// (computed once here instead).
  final class Storage: Sendable {
    /// The record's own fields.
    let fields: Fields
    /// ``URLHost/serialized`` of the host.
    let serializedHost: String
    /// ``URLHost/isIPAddress`` of the host.
    let isIPAddress: Bool
    /// https or wss.
    let isSecureScheme: Bool
    /// A secure scheme or a loopback host (Secure Contexts §3.2).
    let isSecureOrigin: Bool
    /// The port, or the scheme's default port.
    let effectivePort: Int

    init(_ fields: Fields) {
      self.fields = fields
      serializedHost = fields.host.serialized
      isIPAddress = fields.host.isIPAddress
      isSecureScheme = fields.scheme == "https" || fields.scheme == "wss"
      isSecureOrigin = isSecureScheme || fields.host.isLoopback
      effectivePort = fields.port ?? URLRecord.defaultPort(forScheme: fields.scheme) ?? 80
    }
  }

  /// Every field of a record, compared and hashed together.
  struct Fields: Hashable {
    let scheme: String
    let username: String
    let password: String
    let host: URLHost
    let port: Int?
    let path: String
    let query: String?
    let fragment: String?
  }
}
