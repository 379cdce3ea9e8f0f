import Foundation
import WebsiteDataStore

/// Where the page parses documents: one dedicated thread, so that Gumbo (C
/// code whose time grows with hostile input, such as deeply nested markup)
/// never occupies a thread of Swift's cooperative pool.
///
/// Documents are parsed one at a time, in the order asked. One per process;
/// its thread lives as long as the process.
actor HTMLParserThread {
  static let shared = HTMLParserThread()

  private let executor = ThreadSerialExecutor(name: "WebsiteData.HTMLParser")

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Decodes and parses a document received as bytes (see
  /// ``HTMLDocument/init(bytes:url:contentType:encoding:domainFacts:)``).
  func parse(bytes: [UInt8], url: URL, contentType: String?, encoding: HTMLEncoding?)
    throws(HTMLDocumentError) -> HTMLDocument
  {
    try HTMLDocument(bytes: bytes, url: url, contentType: contentType, encoding: encoding)
  }

  /// Parses a document given as text.
  func parse(html: String, url: URL) throws(HTMLDocumentError) -> HTMLDocument {
    try HTMLDocument(html: html, url: url)
  }
}
