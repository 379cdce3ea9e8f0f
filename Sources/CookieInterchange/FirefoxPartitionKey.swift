import WebsiteDataStore

/// The `partitionKey` origin attribute of a Firefox cookie: the top-level
/// site whose partition the cookie lives in (Total Cookie Protection, and
/// CHIPS cookies), as `OriginAttributes::ParsePartitionKey`
/// (`caps/OriginAttributes.cpp`) reads it.
///
/// The format is `(scheme,host[,port][,f])`: the scheme and base domain of
/// the top-level site, a port only for hosts without a base domain (IP
/// addresses, `localhost`), and `f` when the context was foreign by an
/// ancestor (same-site with the top level, but inside a cross-site frame).
/// In the stored suffix `:` (IPv6 hosts) is written as `+`; that is undone
/// before this parser sees the text.
struct FirefoxPartitionKey: Hashable {
  /// The top-level site's scheme, `https` or `http`.
  let scheme: String
  /// The top-level site's base domain (or host).
  let host: String
  /// The top-level site's port, when Firefox recorded one.
  let port: Int?
  /// Firefox's foreign-by-ancestor bit (`,f`).
  let isForeignByAncestor: Bool

  /// Parses the decoded attribute value, e.g. `(https,example.com)`.
  ///
  /// - Throws: ``CookieRowProblem`` when the value is not in the format above
  ///   (Firefox rejects such keys too); a bare host, the format of
  ///   `privacy.dynamic_firstparty.use_site = false`, has no scheme and is
  ///   rejected as well.
  init(parsing value: String) throws(CookieRowProblem) {
    guard value.utf8.count >= 5, value.hasPrefix("("), value.hasSuffix(")") else {
      throw CookieRowProblem("the partitionKey origin attribute is not (scheme,site)")
    }
    let fields = value.dropFirst().dropLast().split(
      separator: ",", omittingEmptySubsequences: false)
    guard fields.count >= 2, fields.count <= 4, fields.allSatisfy({ !$0.isEmpty }) else {
      throw CookieRowProblem("the partitionKey origin attribute is not (scheme,site[,port][,f])")
    }
    var port: Int?
    var foreign = false
    for (position, field) in fields.enumerated().dropFirst(2) {
      if field == "f" && !foreign {
        foreign = true
      } else if position == 2, field.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let number = Int(field), (1...65535).contains(number)
      {
        port = number
      } else {
        throw CookieRowProblem("the partitionKey origin attribute has an invalid port or flag")
      }
    }
    if fields.count == 4 && (port == nil || !foreign) {
      throw CookieRowProblem("the partitionKey origin attribute has an invalid port or flag")
    }
    scheme = String(fields[0])
    host = String(fields[1])
    self.port = port
    isForeignByAncestor = foreign
  }
}
