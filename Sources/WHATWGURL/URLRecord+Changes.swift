/// Records made from another by changing one part, as the loader needs them,
/// without serializing and parsing again.
extension URLRecord {
  /// This URL with the fragment of `other` (already in the parser's
  /// percent-encoded form): a redirect target without a fragment keeps the
  /// current URL's (Fetch §4.4 "HTTP-redirect fetch",
  /// step 7).
  package func withFragment(of other: URLRecord) -> URLRecord {
    URLRecord(
      scheme: scheme, username: username, password: password, host: host, port: port, path: path,
      query: query, fragment: other.fragment)
  }

  /// This `http:` URL upgraded to `https:` (RFC 6797 §8.3 step 5): an
  /// explicit port 80 becomes https's default, another explicit port stays
  /// (443, https's default, is then left out, as the URL parser leaves out
  /// a scheme's default port).
  package func upgradedToHTTPS() -> URLRecord {
    let upgradedPort = port == 80 || port == 443 ? nil : port
    return URLRecord(
      scheme: "https", username: username, password: password, host: host, port: upgradedPort,
      path: path, query: query, fragment: fragment)
  }
}
