extension URLRecord {
  /// The fields of a URL record, immutable and shared by every copy of the
  /// record, plus what cookie rules derive from them on every request
  /// (computed once here instead).
  final class Storage: Sendable {
    let scheme: String
    let username: String
    let password: String
    let host: URLHost
    let port: Int?
    let path: String
    let query: String?
    let fragment: String?
    /// ``URLHost/serialized`` of ``host``.
    let serializedHost: String
    /// ``URLHost/isIPAddress`` of ``host``.
    let isIPAddress: Bool
    /// https or wss.
    let isSecureScheme: Bool
    /// A secure scheme or a loopback host (Secure Contexts §3.2).
    let isSecureOrigin: Bool
    /// ``port``, or the scheme's default port.
    let effectivePort: Int

    init(
      scheme: String, username: String, password: String, host: URLHost, port: Int?,
      path: String, query: String?, fragment: String?
    ) {
      self.scheme = scheme
      self.username = username
      self.password = password
      self.host = host
      self.port = port
      self.path = path
      self.query = query
      self.fragment = fragment
      serializedHost = host.serialized
      isIPAddress = host.isIPAddress
      isSecureScheme = scheme == "https" || scheme == "wss"
      isSecureOrigin = isSecureScheme || host.isLoopback
      effectivePort = port ?? URLRecord.defaultPort(forScheme: scheme) ?? 80
    }

    /// The fields that make up a record's identity (equality and hashing).
    var fields: Fields {
      Fields(
        scheme: scheme, username: username, password: password, host: host, port: port,
        path: path, query: query, fragment: fragment)
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
