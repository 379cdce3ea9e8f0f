import Dispatch
import Glibc
import Synchronization

/// Resolves host names for a session, off the caller's thread: with a
/// ``NameServer``, by asking it (``DNSQuery``); otherwise with the system's
/// resolver, `getaddrinfo(3)` with `AI_CANONNAME`, for the canonical name
/// only (libcurl resolves what it connects to itself).
///
/// Answers, empty ones included, are kept for the session: at most
/// ``capacity`` names, all forgotten when it is reached.
final class HostNameResolver: Sendable {
  let nameServer: NameServer?
  private let answers = Mutex<[String: ResolvedHost]>([:])
  static let capacity = 1000

  init(nameServer: NameServer?) {
    self.nameServer = nameServer
  }

  /// `host` resolved (from the session's answers when it was before).
  func resolve(_ host: String) async -> ResolvedHost {
    if let known = answers.withLock({ $0[host] }) { return known }
    let server = nameServer
    let resolved = await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let answer =
          server.map { DNSQuery.resolve(host, server: $0) } ?? Self.systemCanonicalName(of: host)
        continuation.resume(returning: answer ?? ResolvedHost())
      }
    }
    answers.withLock { answers in
      if answers.count >= Self.capacity { answers.removeAll() }
      answers[host] = resolved
    }
    return resolved
  }

  /// The system resolver's canonical name of `host` (`getaddrinfo(3)`,
  /// `AI_CANONNAME`: the end of its CNAME chain); `nil` when it cannot be
  /// resolved.
  private static func systemCanonicalName(of host: String) -> ResolvedHost? {
    var hints = addrinfo()
    hints.ai_flags = AI_CANONNAME
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return nil }
    defer { freeaddrinfo(list) }
    let canonical = list.pointee.ai_canonname.map { String(cString: $0) }
    return ResolvedHost(canonicalName: ResolvedHost.alias(canonical, of: host))
  }
}
