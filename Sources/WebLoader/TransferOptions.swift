import Foundation
import Synchronization

/// A ``LoadConfiguration`` checked and turned into what libcurl takes, once
/// per session: milliseconds, the `CURLOPT_RESOLVE` list, the CA folder.
/// A class: every hop holds the session's one copy.
final class TransferOptions: Sendable {
  /// Identifies these options (and their copies): a pooled easy handle that
  /// holds them for one session needs no setup for the next hop of it.
  let profile: Int
  let userAgent: String?
  let resolveList: CurlStringList?
  /// The hosts of ``resolveList`` (never asked of a name server).
  let overriddenHosts: Set<String>
  let connectTimeoutMilliseconds: Int?
  let timeoutMilliseconds: Int?
  /// `""` disables proxies (environment included); `nil` leaves libcurl's
  /// environment handling on.
  let proxy: String?
  let caFile: String?
  /// The system's hashed CA folder, searched in addition to `caFile`.
  let caPath: String?
  let maximumBodySize: Int?
  let acceptsCompressedResponses: Bool
  let verifiesTLSPeer: Bool

  /// The last ``profile`` given out.
  private static let profiles = Atomic<Int>(0)

  /// The system CA folder OpenSSL reads as `CApath` (Debian's
  /// ca-certificates keeps hashed links there).
  static let systemCAFolder = "/etc/ssl/certs"

  /// Checks `configuration`.
  ///
  /// - Throws: ``LoadError`` `.invalidRequest` for a malformed resolve
  ///   override, a negative limit or timeout, or a missing CA file.
  init(_ configuration: LoadConfiguration) throws(LoadError) {
    profile = Self.profiles.add(1, ordering: .relaxed).newValue
    if let agent = configuration.userAgent,
      agent.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 })
    {
      throw LoadError(.invalidRequest, "the user agent holds a NUL, CR or LF")
    }
    userAgent = configuration.userAgent
    for entry in configuration.resolveOverrides {
      guard !entry.host.isEmpty, !entry.host.contains(":"), !entry.address.isEmpty,
        (1...65535).contains(entry.port)
      else {
        throw LoadError(.invalidRequest, "malformed resolve override for port \(entry.port)")
      }
    }
    if let server = configuration.nameServer, !server.isValid {
      throw LoadError(.invalidRequest, "the name server is not an IPv4 address and port")
    }
    overriddenHosts = Set(configuration.resolveOverrides.map(\.host))
    resolveList =
      configuration.resolveOverrides.isEmpty
      ? nil : try CurlStringList(configuration.resolveOverrides.map(\.description))
    connectTimeoutMilliseconds = try configuration.connectTimeout.map(Self.milliseconds)
    timeoutMilliseconds = try configuration.timeout.map(Self.milliseconds)
    switch configuration.proxy {
    case .none: proxy = ""
    case .environment: proxy = nil
    case .url(let url): proxy = url
    }
    if let file = configuration.extraCAFile {
      guard FileManager.default.isReadableFile(atPath: file) else {
        throw LoadError(.invalidRequest, "the extra CA file \(file) cannot be read")
      }
      caFile = file
      var isFolder: ObjCBool = false
      caPath =
        FileManager.default.fileExists(atPath: Self.systemCAFolder, isDirectory: &isFolder)
          && isFolder.boolValue ? Self.systemCAFolder : nil
    } else {
      caFile = nil
      caPath = nil
    }
    if let limit = configuration.maximumBodySize, limit < 0 {
      throw LoadError(.invalidRequest, "the body size limit is negative")
    }
    guard configuration.redirectLimit >= 0 else {
      throw LoadError(.invalidRequest, "the redirect limit is negative")
    }
    maximumBodySize = configuration.maximumBodySize
    acceptsCompressedResponses = configuration.acceptsCompressedResponses
    verifiesTLSPeer = configuration.verifiesTLSPeer
  }

  /// A positive duration in whole milliseconds (at least 1).
  private static func milliseconds(_ duration: Duration) throws(LoadError) -> Int {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0, seconds > 0 || attoseconds > 0 else {
      throw LoadError(.invalidRequest, "a timeout is not positive")
    }
    let (product, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
    guard !overflow else { return Int.max }
    return max(1, product + Int(attoseconds / 1_000_000_000_000_000))
  }
}
