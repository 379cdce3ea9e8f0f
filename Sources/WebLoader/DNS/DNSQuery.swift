import CResolv
import Glibc

/// Resolves a host name by asking one DNS server (``NameServer``) with
/// glibc's stub resolver, `res_nquery(3)`: an `A` query (an `AAAA` one when
/// there is no IPv4 address), the answer section parsed with
/// `ns_initparse(3)` / `ns_parserr(3)`, its CNAME records followed from the
/// host to the last name (RFC 1034 §3.6.2).
enum DNSQuery {
  /// `ns_t_a`, `ns_t_aaaa`, `ns_t_cname` (RFC 1035 §3.2.2, RFC 3596 §2.1).
  private static let typeA: Int32 = 1
  private static let typeAAAA: Int32 = 28
  private static let typeCNAME: UInt16 = 5

  /// The host's alias chain end and addresses, from `server`; `nil` when
  /// the server gave no answer (no such name, unreachable after
  /// `timeoutSeconds` × 2 tries).
  static func resolve(_ host: String, server: NameServer, timeoutSeconds: Int = 2)
    -> ResolvedHost?
  {
    var resolved = query(host, type: typeA, server: server, timeoutSeconds: timeoutSeconds)
    if resolved == nil || resolved?.addresses.isEmpty == true,
      let v6 = query(host, type: typeAAAA, server: server, timeoutSeconds: timeoutSeconds)
    {
      resolved = ResolvedHost(
        canonicalName: resolved?.canonicalName ?? v6.canonicalName, addresses: v6.addresses)
    }
    return resolved
  }

  /// One query of `type`, parsed.
  private static func query(
    _ host: String, type: Int32, server: NameServer, timeoutSeconds: Int
  ) -> ResolvedHost? {
    var answer = [UInt8](repeating: 0, count: 4096)
    let length = answer.withUnsafeMutableBufferPointer { buffer in
      websitedata_res_query(
        server.address, UInt16(server.port), host, type, buffer.baseAddress, Int32(buffer.count),
        Int32(timeoutSeconds), 2)
    }
    guard length > 0 else { return nil }
    return answer.withUnsafeBufferPointer { buffer in
      parse(UnsafeBufferPointer(rebasing: buffer[..<Int(length)]), host: host, type: type)
    }
  }

  /// The answer section of a DNS message: CNAME records (owner → target),
  /// and the addresses of the records of `type`.
  private static func parse(_ message: UnsafeBufferPointer<UInt8>, host: String, type: Int32)
    -> ResolvedHost?
  {
    guard let base = message.baseAddress else { return nil }
    var handle = ns_msg()
    guard ns_initparse(base, Int32(message.count), &handle) == 0 else { return nil }
    let answers = Int32(handle._counts.1)  // ns_s_an
    var aliases: [String: String] = [:]
    var addresses: [String] = []
    for index in 0..<answers {
      var record = ns_rr()
      guard ns_parserr(&handle, ns_s_an, index, &record) == 0, let data = record.rdata else {
        continue
      }
      if record.type == typeCNAME {
        let owner = withUnsafeBytes(of: record.name) { text($0) }
        var target = [CChar](repeating: 0, count: 1025)
        guard websitedata_dn_expand(base, base + message.count, data, &target, 1025) > 0 else {
          continue
        }
        aliases[ResolvedHost.normalized(owner)] = ResolvedHost.normalized(
          target.withUnsafeBytes { text($0) })
      } else if Int32(record.type) == type {
        let size = type == typeA ? 4 : 16
        guard Int(record.rdlength) == size else { continue }
        var address = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = type == typeA ? AF_INET : AF_INET6
        guard inet_ntop(family, data, &address, socklen_t(address.count)) != nil else { continue }
        addresses.append(address.withUnsafeBytes { text($0) })
      }
    }
    // Follow the chain from the host (at most as many steps as records).
    var name = ResolvedHost.normalized(host)
    for _ in 0..<aliases.count {
      guard let next = aliases[name] else { break }
      name = next
    }
    return ResolvedHost(canonicalName: ResolvedHost.alias(name, of: host), addresses: addresses)
  }

  /// The NUL-terminated text at the start of `bytes`, as UTF-8.
  private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }
}
