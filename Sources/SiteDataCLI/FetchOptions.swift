import Foundation
import FoundationNetworking
import WebLoader
import WebsiteData

/// What `sitedata fetch` was asked to load, and how: the request (URL,
/// method, header fields, body), the transport (user agent, resolve
/// overrides, redirect limit, time limit, extra CA, proxy), and the output.
///
/// Everything is checked before the store is opened, so that a usage error
/// creates nothing.
struct FetchOptions {
  /// The URL, parsed (http or https).
  let url: URLRecord
  /// The method (upper-case).
  let method: String
  /// The `--header` fields, in order.
  let headers: [HTTPHeader]
  /// The `--data` body.
  let body: [UInt8]?
  /// Whether `--subresources` was given.
  let loadsSubresources: Bool
  /// The transport's settings.
  let transport: LoadConfiguration
  /// `-v`: print every event and hop.
  let verbose: Bool
  /// `--json`: print one JSON object.
  let json: Bool

  /// The options, for ``Arguments`` (the store options are added by the
  /// command).
  static let options: [Arguments.Option] = [
    .value("user-agent"), .value("resolve"), .value("header"), .value("data"),
    .value("method"), .value("max-redirects"), .value("timeout"), .value("cacert"),
    .value("proxy"), .flag("subresources"), .flag("verbose", short: "v"), .flag("json"),
  ]

  /// The OPTIONS lines for the help text.
  static let help = """
      --user-agent <ua>       The User-Agent of every request (default: the
                              library's, which says it is headless).
      --resolve <host:port:address>
                              Connect to <address> for <host>:<port>, without
                              DNS (as curl's --resolve); the request still names
                              <host>. Repeatable.
      --header <'Name: value'>
                              A request header field of the page's request.
                              Repeatable. Cookie is not accepted: cookies come
                              from the store.
      --data <body>           Send <body> (as given) with a POST; its
                              Content-Type is application/x-www-form-urlencoded
                              unless a --header gives one.
      --method <method>       The method (default GET, or POST with --data).
      --max-redirects <n>     Follow at most <n> redirects (default 20).
      --timeout <seconds>     Give up on a request (connect, send, whole
                              response) after <seconds>; each redirect is a new
                              request. Default: no limit (30 s to connect).
      --cacert <file>         Also trust the CA certificates in this PEM file.
      --proxy <url>           Use this proxy (http://host:port,
                              socks5h://host:port...). Default: none, whatever
                              the environment says.
      --subresources          Also load the page's images, scripts, stylesheets
                              and iframes, as a browser would (third-party
                              cookie rules apply).
      -v, --verbose           Print each navigation event and, for every hop,
                              the request, the Cookie header sent and each
                              Set-Cookie received with what the store did with
                              it (accepted, or rejected and why).
      --json                  Print one JSON object: the final URL, status,
                              title, theme colour, response headers and the
                              events with every hop's cookies.
    """

  /// Reads the options of `command` and its URL argument.
  ///
  /// - Throws: a usage error naming what is wrong; a failure for a CA file
  ///   that cannot be read.
  init<C: Command>(url text: String, _ parsed: Arguments, of command: C.Type) throws(CLIError) {
    do {
      url = try WebsiteDataStore.nonPersistent().url(text)
    } catch {
      throw .usage("'\(text)' is not a URL: \(error.message)", of: command)
    }
    guard url.scheme == "http" || url.scheme == "https" else {
      throw .usage("'\(text)' is not an http or https URL", of: command)
    }
    headers = try (parsed.allValues["header"] ?? []).map { line throws(CLIError) in
      try Self.header(line, of: command)
    }
    body = parsed.values["data"].map { Array($0.utf8) }
    if let given = parsed.values["method"] {
      guard HTTPToken.isToken(given) else {
        throw .usage("'\(given)' is not an HTTP method", of: command)
      }
      method = given.uppercased()
    } else {
      method = body == nil ? "GET" : "POST"
    }
    loadsSubresources = parsed.flags.contains("subresources")
    verbose = parsed.flags.contains("verbose")
    json = parsed.flags.contains("json")
    if verbose && json { throw .usage("-v and --json cannot be combined", of: command) }
    transport = try Self.transport(parsed, of: command)
  }

  /// The loader's settings the options give.
  private static func transport<C: Command>(_ parsed: Arguments, of command: C.Type)
    throws(CLIError) -> LoadConfiguration
  {
    var transport = LoadConfiguration()
    if let userAgent = parsed.values["user-agent"] {
      guard HTTPToken.isFieldValue(userAgent) else {
        throw .usage("the user agent holds a line break", of: command)
      }
      transport.userAgent = userAgent
    }
    transport.resolveOverrides = try (parsed.allValues["resolve"] ?? []).map {
      entry throws(CLIError) in try resolveOverride(entry, of: command)
    }
    if let limit = parsed.values["max-redirects"] {
      guard let count = Int(limit), count >= 0 else {
        throw .usage(
          "--max-redirects takes a whole number (0 or more), not '\(limit)'", of: command)
      }
      transport.redirectLimit = count
    }
    if let limit = parsed.values["timeout"] {
      guard let seconds = Double(limit), seconds > 0, seconds <= 86_400 else {
        throw .usage(
          "--timeout takes a number of seconds (up to 86400), not '\(limit)'", of: command)
      }
      transport.timeout = .milliseconds(max(1, Int((seconds * 1000).rounded())))
    }
    if let file = parsed.values["cacert"] {
      guard FileManager.default.isReadableFile(atPath: file) else {
        throw .failure("cannot read the CA file \(file)")
      }
      transport.extraCAFile = file
    }
    if let proxy = parsed.values["proxy"] {
      guard !proxy.isEmpty, HTTPToken.isFieldValue(proxy) else {
        throw .usage("--proxy takes a proxy URL", of: command)
      }
      transport.proxy = .url(proxy)
    }
    return transport
  }

  /// A `--header 'Name: value'` field.
  private static func header<C: Command>(_ line: String, of command: C.Type) throws(CLIError)
    -> HTTPHeader
  {
    guard let colon = line.firstIndex(of: ":") else {
      throw .usage("--header takes 'Name: value', not '\(line)'", of: command)
    }
    let name = String(line[..<colon])
    let value = line[line.index(after: colon)...].trimmingCharacters(in: .init(charactersIn: " \t"))
    guard HTTPToken.isToken(name) else {
      throw .usage("'\(name)' is not a header name (--header 'Name: value')", of: command)
    }
    guard HTTPToken.isFieldValue(value) else {
      throw .usage("the value of --header '\(name)' holds a line break", of: command)
    }
    guard name.lowercased() != "cookie" else {
      throw .usage(
        "--header cannot give a Cookie: cookies come from the store"
          + " (add one with 'sitedata cookies set')", of: command)
    }
    return HTTPHeader(name, value)
  }

  /// A `--resolve host:port:address` entry (an IPv6 address may be in
  /// brackets).
  private static func resolveOverride<C: Command>(_ entry: String, of command: C.Type)
    throws(CLIError) -> ResolveOverride
  {
    let usage = CLIError.usage(
      "--resolve takes host:port:address (a.test:443:127.0.0.1), not '\(entry)'", of: command)
    let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, HTTPToken.isFieldValue(entry),
      let port = Int(parts[1]), (1...65_535).contains(port)
    else { throw usage }
    var address = String(parts[2])
    if address.hasPrefix("[") && address.hasSuffix("]") {
      address = String(address.dropFirst().dropLast())
    }
    guard isIPAddress(address) else { throw usage }
    return ResolveOverride(host: parts[0].lowercased(), port: port, address: address)
  }

  /// Whether `text` is an IPv4 or IPv6 address (`inet_pton(3)`).
  private static func isIPAddress(_ text: String) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16)
    return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
  }

  /// The page's request.
  var request: URLRequest {
    // A serialized URL record is a valid URL.
    var request = URLRequest(url: URL(string: url.serialized) ?? WebPage.aboutBlank)
    request.httpMethod = method
    for header in headers {
      request.addValue(header.value, forHTTPHeaderField: header.name)
    }
    if let body {
      request.httpBody = Data(body)
      if headers.first(named: "Content-Type") == nil {
        request.setValue(
          "application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
      }
    }
    return request
  }

  /// The page configuration with `store`.
  func configuration(store: WebsiteDataStore) -> WebPage.Configuration {
    WebPage.Configuration(
      websiteDataStore: store, loadsSubresources: loadsSubresources, transport: transport)
  }
}
