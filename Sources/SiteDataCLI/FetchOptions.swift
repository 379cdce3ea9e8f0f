import Foundation
import FoundationNetworking
import WebLoader
import WebsiteData
import WebsiteDataStore

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
  /// `-o/--output`: the file the final response body is written to (`-`:
  /// stdout).
  let output: String?
  /// `-i/--include`: each response head before the body.
  let includesHeads: Bool
  /// `-D/--dump-header`: the file each response head is written to (`-`:
  /// stdout).
  let headFile: String?
  /// `false` with `--no-follow` or `--max-redirects 0`: a redirect response
  /// is the result.
  let followsRedirects: Bool
  /// `--stop-at`: no URL that starts with it is requested.
  let stopPrefix: String?
  /// `-q/--quiet`: no progress line for subresources.
  let isQuiet: Bool
  /// Whether the fetched page counts as a user interaction with its site
  /// for tracking prevention (not with `--no-interaction`).
  let recordsInteraction: Bool
  /// `--insecure`: any TLS certificate is accepted.
  var isInsecure: Bool { !transport.verifiesTLSPeer }
  /// `--no-cache`: the page is not answered from the store's HTTP cache
  /// (its response is still stored).
  let bypassesCache: Bool

  /// Whether the body goes to stdout (`-o -`): the rest of what `fetch`
  /// prints then goes to stderr, or is left out.
  var bodyGoesToStdout: Bool { output == "-" }

  /// The options, for ``Arguments`` (the store options are added by the
  /// command).
  static let options: [Arguments.Option] = [
    .value("user-agent"), .value("resolve"), .value("dns-server"), .value("header"), .value("data"),
    .value("method"), .value("max-redirects"), .value("timeout"), .value("cacert"),
    .value("proxy"), .flag("subresources"), .flag("verbose", short: "v"), .flag("json"),
    .value("output", short: "o"), .flag("include", short: "i"), .value("dump-header", short: "D"),
    .value("max-body-size"), .flag("no-follow"), .value("stop-at"), .flag("insecure", short: "k"),
    .flag("quiet", short: "q"), .flag("no-interaction"), .flag("no-cache"),
  ]

  /// The OPTIONS lines for the help text.
  static let help = """
      --user-agent <ua>       The User-Agent of every request (default: the
                              library's, which says it is headless).
      --resolve <host:port:address>
                              Connect to <address> for <host>:<port>, without
                              DNS (as curl's --resolve); the request still names
                              <host>. Repeatable.
      --dns-server <address[:port]>
                              Resolve host names with this DNS server (IPv4,
                              port 53 by default) instead of the system's, as
                              curl's --dns-servers; its CNAME answers feed
                              tracking prevention's CNAME cloaking cap.
      --header <'Name: value'>
                              A request header field of the page's request.
                              Repeatable. Cookie is not accepted: cookies come
                              from the store.
      --data <body>           Send <body> (as given) with a POST; its
                              Content-Type is application/x-www-form-urlencoded
                              unless a --header gives one.
      --method <method>       The method (default GET, or POST with --data).
      --max-redirects <n>     Follow at most <n> redirects (default 20); more is
                              an error. 0: as --no-follow.
      --no-follow             Do not follow redirects: a redirect response is
                              the result (its status and Location are printed).
      --no-cache              Do not answer the page from the store's HTTP cache
                              (RFC 9111); its response is still stored. -v says
                              for each hop: cache hit, revalidated or miss.
      --stop-at <url-prefix>  Do not request a URL that starts with <url-prefix>
                              (a redirect to it ends the fetch with the
                              redirect response, and prints 'stopped at: URL'):
                              catches an OAuth callback on loopback or a custom
                              scheme without loading it.
      --timeout <seconds>     Give up on a request (connect, send, whole
                              response) after <seconds>; each redirect is a new
                              request. Default: no limit (30 s to connect).
      --cacert <file>         Also trust the CA certificates in this PEM file.
      -k, --insecure          Accept any TLS certificate (as curl -k): anyone on
                              the path can then read and change the traffic,
                              cookies included. Says so on stderr.
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
                              title, theme colour, response headers, the body
                              (bodyText when it is text, else bodyBase64) and
                              the events with every hop's cookies.
      -o, --output <file>     Write the final response body to <file> ('-':
                              stdout, and the summary is left out).
      -i, --include           Print each response head (status line and header
                              fields) before the body, or before the summary.
      -D, --dump-header <file>
                              Write each response head to <file> ('-': stdout).
      --max-body-size <bytes> Fail when a response body is larger (a number, or
                              with K, M or G: 512K, 10M). Default: no limit.
      -q, --quiet             No progress line while subresources load (shown on
                              stderr only when it is a terminal, and not with -v).
      --no-interaction        Do not count the page as the user's interaction
                              with its site. By default a fetch does (a person
                              asked for that page): tracking prevention then
                              leaves that site's cookies alone for 30 days even
                              if it is classified as a tracker. Crawls should
                              pass it.
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
    output = try Self.path(parsed, "output", of: command)
    headFile = try Self.path(parsed, "dump-header", of: command)
    includesHeads = parsed.flags.contains("include")
    isQuiet = parsed.flags.contains("quiet")
    recordsInteraction = !parsed.flags.contains("no-interaction")
    if json && (output == "-" || headFile == "-" || includesHeads) {
      throw .usage(
        "--json prints the body and heads itself: not with -o -, -D - or -i", of: command)
    }
    if output == "-" && headFile == "-" {
      throw .usage("-o - and -D - cannot both write to stdout (use -i)", of: command)
    }
    bypassesCache = parsed.flags.contains("no-cache")
    stopPrefix = parsed.values["stop-at"]
    if stopPrefix?.isEmpty == true {
      throw .usage("--stop-at takes the start of a URL", of: command)
    }
    var transport = try Self.transport(parsed, of: command)
    followsRedirects = !parsed.flags.contains("no-follow") && transport.redirectLimit > 0
    if !followsRedirects { transport.redirectLimit = LoadConfiguration().redirectLimit }
    self.transport = transport
  }

  /// The file an option names (`-`: stdout).
  private static func path<C: Command>(_ parsed: Arguments, _ name: String, of command: C.Type)
    throws(CLIError) -> String?
  {
    guard let path = parsed.values[name] else { return nil }
    guard !path.isEmpty else { throw .usage("--\(name) takes a file name or '-'", of: command) }
    return path
  }

  /// A `--max-body-size`: bytes, or a number with `K`, `M` or `G` (binary
  /// multiples, as curl reads them).
  static func byteCount(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text)
    var unit = 1
    if let last = text.last?.uppercased().first, let multiple = units[last] {
      unit = multiple
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 0
    else { return nil }
    let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
    return overflow ? nil : bytes
  }

  /// The loader's settings the options give.
  static func transport<C: Command>(_ parsed: Arguments, of command: C.Type)
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
    if let server = parsed.values["dns-server"] {
      guard let nameServer = NameServer(server) else {
        throw .usage(
          "--dns-server takes an IPv4 address and an optional port (127.0.0.1:5353), not '\(server)'",
          of: command)
      }
      transport.nameServer = nameServer
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
    if let size = parsed.values["max-body-size"] {
      guard let bytes = byteCount(size) else {
        throw .usage(
          "--max-body-size takes a number of bytes (or with K, M or G), not '\(size)'",
          of: command)
      }
      transport.maximumBodySize = bytes
    }
    transport.verifiesTLSPeer = !parsed.flags.contains("insecure")
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
    guard NetworkAddress(address) != nil else { throw usage }
    return ResolveOverride(host: parts[0].lowercased(), port: port, address: address)
  }

  /// The page's request.
  var request: URLRequest {
    // A serialized URL record is a valid URL.
    var request = URLRequest(url: URL(string: url.serialized) ?? WebPage.aboutBlank)
    request.httpMethod = method
    if bypassesCache { request.cachePolicy = .reloadIgnoringLocalCacheData }
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

  /// The page configuration with `store`, and the decider that stops at
  /// redirects (`--no-follow`) and before `--stop-at` URLs.
  func configuration(store: WebsiteDataStore, decider: FetchDecider?) -> WebPage.Configuration {
    var configuration = WebPage.Configuration(
      websiteDataStore: store, loadsSubresources: loadsSubresources, transport: transport)
    configuration.navigationDecider = decider
    return configuration
  }
}
