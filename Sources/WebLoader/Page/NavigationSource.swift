import Foundation
import FoundationNetworking

/// What a navigation loads, kept in the back/forward list so that a reload
/// or a back/forward move can load it again.
enum NavigationSource: Sendable {
  /// A request over the network (http, https) or to a scheme handler.
  case request(URLRequest)
  /// A request the document at `by` started: a form submission or a
  /// refresh (its cookie context is a navigation initiated by that
  /// document).
  case initiated(URLRequest, by: URL)
  /// `load(html:baseURL:)`.
  case html(String, baseURL: URL)
  /// `load(_:mimeType:characterEncoding:baseURL:)`.
  case data(Data, mimeType: String, encoding: String.Encoding, baseURL: URL)
  /// `load(simulatedRequest:responseHTML:)`.
  case simulated(URLRequest, html: String)

  /// The URL the navigation asks for.
  var url: URL? {
    switch self {
    case .request(let request), .simulated(let request, _), .initiated(let request, _):
      request.url
    case .html(_, let baseURL), .data(_, _, _, let baseURL): baseURL
    }
  }

  /// The document that started the navigation, for a form submission.
  var initiator: URL? {
    if case .initiated(_, let initiator) = self { return initiator }
    return nil
  }

  /// Whether loading it again posts a form again.
  var isFormPost: Bool {
    if case .initiated(let request, _) = self { return request.httpMethod == "POST" }
    return false
  }
}
