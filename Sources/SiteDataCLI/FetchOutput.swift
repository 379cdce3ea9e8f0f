import WebsiteData

/// The files `sitedata fetch` writes besides its report: the final
/// response body (`-o`), with the response heads before it (`-i`), and the
/// heads alone (`-D`), as curl writes them.
enum FetchOutput {
  /// A response head as HTTP/1.1 writes it on the wire: the status line,
  /// each header field in order, and an empty line, every line ending in
  /// CRLF (HTTP/2 responses are written the same way, `HTTP/2 200`).
  static func head(of hop: LoadHop) -> String {
    var text = hop.httpVersion + " " + FetchStep.status(hop) + "\r\n"
    for field in hop.headers { text += field.name + ": " + field.value + "\r\n" }
    return text + "\r\n"
  }

  /// The heads of every response the fetch received, redirects first.
  static func heads(of outcome: FetchOutcome) -> String {
    outcome.hops.map(head(of:)).joined()
  }

  /// Writes `-D`'s heads and `-o`'s body (with `-i`, the heads first). A
  /// fetch that committed no page writes no body file.
  ///
  /// - Throws: a failure naming a file that cannot be written.
  static func write(_ outcome: FetchOutcome, _ options: FetchOptions) throws(CLIError) {
    if let headFile = options.headFile {
      try OutputFile.write(heads(of: outcome), to: headFile)
    }
    if let output = options.output, let page = outcome.page {
      let heads = options.includesHeads ? Array(heads(of: outcome).utf8) : []
      try OutputFile.write(bytes: heads + page.body, to: output)
    }
  }
}
