internal import CCurl
import CookieCore

/// Why a load failed: a transfer error from libcurl (with its `CURLcode` and
/// message), a redirect problem, cancellation, or a bad request.
///
/// Equality compares the code only. The message never contains a secret: no
/// cookie value and no request header value.
public struct LoadError: Error, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable, extensible code.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The host name could not be resolved (`CURLE_COULDNT_RESOLVE_HOST`,
    /// `CURLE_COULDNT_RESOLVE_PROXY`).
    public static let cannotResolveHost = Code("cannot-resolve-host")
    /// No connection could be made: refused, unreachable
    /// (`CURLE_COULDNT_CONNECT`).
    public static let cannotConnect = Code("cannot-connect")
    /// The connect or total timeout expired (`CURLE_OPERATION_TIMEDOUT`).
    public static let timedOut = Code("timed-out")
    /// The TLS handshake or the server's certificate failed
    /// (`CURLE_PEER_FAILED_VERIFICATION`, `CURLE_SSL_CONNECT_ERROR`, ...).
    public static let tls = Code("tls")
    /// The connection broke or the server's reply was not HTTP
    /// (`CURLE_RECV_ERROR`, `CURLE_GOT_NOTHING`, `CURLE_WEIRD_SERVER_REPLY`, ...).
    public static let transfer = Code("transfer")
    /// The response body exceeded the configured size limit.
    public static let responseTooLarge = Code("response-too-large")
    /// More redirects than the limit allows.
    public static let tooManyRedirects = Code("too-many-redirects")
    /// A redirect's `Location` is missing, not a URL, or not http(s).
    public static let invalidRedirect = Code("invalid-redirect")
    /// The request cannot be sent: not an http(s) URL, a bad method or header.
    public static let invalidRequest = Code("invalid-request")
    /// The task was cancelled; the transfer was aborted.
    public static let cancelled = Code("cancelled")
    /// A request that may be answered only from the cache
    /// (``LoadRequest/CachePolicy/returnCacheDataDontLoad``) had no stored
    /// response.
    public static let notCached = Code("not-cached")
    /// The session was closed before the load finished.
    public static let sessionClosed = Code("session-closed")
    /// libcurl itself failed (initialisation, out of memory, an option the
    /// library does not support).
    public static let curl = Code("curl")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message without secrets.
  public let message: String
  /// The libcurl result code (`CURLcode`) when the failure came from libcurl.
  public let curlCode: Int?
  /// The URL of the hop that failed, when there was one.
  public let url: URLRecord?

  /// Creates an error.
  public init(_ code: Code, _ message: String, curlCode: Int? = nil, url: URLRecord? = nil) {
    self.code = code
    self.message = message
    self.curlCode = curlCode
    self.url = url
  }

  public var description: String {
    var text = "\(code): \(message)"
    if let curlCode { text += " (curl error \(curlCode))" }
    if let url { text += " [\(url.serializedOrigin)]" }
    return text
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension LoadError {
  /// The one place a `CURLcode` becomes an error: the code mapped to a
  /// ``Code``, with curl's detailed message (the `CURLOPT_ERRORBUFFER` text
  /// when given, else `curl_easy_strerror`).
  init(curlCode: CURLcode, message: String?, url: URLRecord?) {
    let detail = message.flatMap { $0.isEmpty ? nil : $0 } ?? Self.strerror(curlCode)
    self.init(
      Self.code(for: curlCode), detail, curlCode: Int(curlCode.rawValue), url: url)
  }

  /// A `CURLMcode` or `CURLSHcode` failure of the multi or share interface.
  init(curlInterface name: String, code: Int32, message: String) {
    self.init(.curl, "\(name): \(message)", curlCode: Int(code), url: nil)
  }

  static func strerror(_ code: CURLcode) -> String {
    guard let text = curl_easy_strerror(code) else { return "curl error \(code.rawValue)" }
    return String(cString: text)
  }

  static func code(for curlCode: CURLcode) -> Code {
    switch curlCode {
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotResolveHost
    case CURLE_COULDNT_CONNECT: .cannotConnect
    case CURLE_OPERATION_TIMEDOUT: .timedOut
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
      CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND,
      CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CLIENTCERT:
      .tls
    case CURLE_FILESIZE_EXCEEDED: .responseTooLarge
    case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .invalidRequest
    case CURLE_FAILED_INIT, CURLE_OUT_OF_MEMORY, CURLE_NOT_BUILT_IN, CURLE_UNKNOWN_OPTION,
      CURLE_BAD_FUNCTION_ARGUMENT:
      .curl
    default: .transfer
    }
  }
}
