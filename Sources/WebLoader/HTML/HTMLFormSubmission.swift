import CookieCore
import Foundation
import FoundationNetworking

/// The request a form submission makes (HTML §4.10.21.3 "form submission
/// algorithm"): method, URL, and for a POST the encoded entry list with its
/// `Content-Type`.
///
/// Its ``description`` names the method and the URL without its query
/// (which holds the entries of a GET); the body is never shown.
public struct HTMLFormSubmission: Sendable, CustomStringConvertible {
  /// `GET` or `POST`.
  public let method: String
  /// The action URL; for a GET, with the entries as its query.
  public let url: URL
  /// `Content-Type` for a POST (with the boundary of `multipart/form-data`).
  public let contentType: String?
  /// The encoded entries, for a POST.
  public let body: [UInt8]?
  /// The document the form belongs to: the request's initiator.
  public let initiator: URL

  /// The submission as a `URLRequest` (for ``WebPage/load(_:)-(URLRequest)``
  /// or any Foundation client).
  public var urlRequest: URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
    request.httpBody = body.map { Data($0) }
    return request
  }

  public var description: String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    return "\(method) \(components?.string ?? "(url)")"
      + (body.map { " (\($0.count) bytes)" } ?? "")
  }
}

extension HTMLForm {
  /// The request submitting the form with `submitter` (one of
  /// ``submitButtons``; nil for a submission without a button, as a
  /// script's `form.submit()` or pressing Enter in a form without one).
  /// The submitter's `formaction`, `formmethod` and `formenctype` win over
  /// the form's. Constraint validation is not run.
  ///
  /// - Throws: ``HTMLFormError`` `.notASubmitButton` when `submitter` is
  ///   not a submit button of this form; `.notSubmittable` when the action
  ///   is not a valid http(s) URL or the method is `dialog`.
  public func submission(using submitter: HTMLFormControl? = nil) throws(HTMLFormError)
    -> HTMLFormSubmission
  {
    if let submitter {
      guard submitter.isSubmitButton, controls.indices.contains(submitter.index),
        controls[submitter.index].kind == submitter.kind,
        controls[submitter.index].name == submitter.name
      else {
        throw HTMLFormError(.notASubmitButton, "the submitter is not a submit button of the form")
      }
    }
    let action =
      submitter?.formAction.map {
        Self.resolveAction($0, documentURL: documentURL, resolver: resolver)
      } ?? self.action
    let method = Method(attribute: submitter?.formMethod, default: self.method)
    let type = EncodingType(attribute: submitter?.formEnctype, default: encodingType)
    guard method != .dialog else {
      throw HTMLFormError(.notSubmittable, "a dialog form closes its dialog; it sends no request")
    }
    guard let action, let scheme = action.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    else {
      throw HTMLFormError(.notSubmittable, "the form's action is not an http(s) URL")
    }
    let entries = entryList(submitter: submitter)
    let encoder = HTMLFormEncoder(encoding: encoding)
    switch method {
    case .dialog, .get:
      // "Mutate action URL": the entries become the query (HTML §4.10.21.3).
      var components = URLComponents(url: action, resolvingAgainstBaseURL: false)
      components?.percentEncodedQuery = String(decoding: encoder.urlEncoded(entries), as: UTF8.self)
      guard let url = components?.url else {
        throw HTMLFormError(.notSubmittable, "the form's action is not an http(s) URL")
      }
      return HTMLFormSubmission(
        method: "GET", url: url, contentType: nil, body: nil, initiator: documentURL)
    case .post:
      let (body, contentType): ([UInt8], String) =
        switch type {
        case .urlEncoded: (encoder.urlEncoded(entries), type.rawValue)
        case .plainText: (encoder.plainText(entries), type.rawValue)
        case .multipart:
          encoder.multipart(entries, boundary: HTMLFormEncoder.randomBoundary())
        }
      return HTMLFormSubmission(
        method: "POST", url: action, contentType: contentType, body: body, initiator: documentURL)
    }
  }
}
