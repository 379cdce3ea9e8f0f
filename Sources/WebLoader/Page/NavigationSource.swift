import Foundation
import FoundationNetworking

/// What a navigation loads, kept in the back/forward list so that a reload
/// or a back/forward move can load it again.
enum NavigationSource: Sendable {
  /// A request over the network (http, https) or to a scheme handler.
  case request(URLRequest)
  /// `load(html:baseURL:)`.
  case html(String, baseURL: URL)
  /// `load(_:mimeType:characterEncoding:baseURL:)`.
  case data(Data, mimeType: String, encoding: String.Encoding, baseURL: URL)
  /// `load(simulatedRequest:responseHTML:)`.
  case simulated(URLRequest, html: String)

  /// The URL the navigation asks for.
  var url: URL? {
    switch self {
    case .request(let request), .simulated(let request, _): request.url
    case .html(_, let baseURL), .data(_, _, _, let baseURL): baseURL
    }
  }
}
