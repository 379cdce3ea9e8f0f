import Foundation
import TextFormats
import WebsiteData

extension FetchOutcome {
  /// The `--json` document:
  ///
  ///     {"url", "status", "title", "themeColor",
  ///      "headers": [{"name", "value"}],          // the final response's, in order
  ///      "bodySize",                              // the final body's bytes
  ///      "bodyText" | "bodyBase64",               // the body (see ``FetchBody``)
  ///      "stoppedAt",                             // the URL --stop-at kept from
  ///                                               // being requested, or null
  ///      "events": [step],                        // see ``FetchStep/json``
  ///      "subresources": [{"url", "kind", "documentURL", "status", "error",
  ///                        "hops": [hop]}],         // each with its cookies
  ///      "error": null | {"code", "message", "curlCode"}}
  ///
  /// `url`, `status` and `title` are `null` when nothing was committed.
  func document(_ steps: [FetchStep]) -> JSONValue {
    .object([
      ("url", .string(page?.url.absoluteString)),
      ("status", .integer(page?.response.statusCode)),
      ("title", .string(page?.title)),
      ("themeColor", .string(page?.themeColor)),
      ("headers", .array((page?.response.headers ?? []).map(Self.json(header:)))),
      ("bodySize", .integer(page?.body.count)),
      page.flatMap(FetchBody.text(of:)).map { ("bodyText", .string($0)) }
        ?? ("bodyBase64", .string(page.map { Data($0.body).base64EncodedString() })),
      ("stoppedAt", .string(stoppedAt?.absoluteString)),
      ("events", .array(steps.map(\.json))),
      ("subresources", .array((page?.subresources ?? []).map(Self.json(subresource:)))),
      ("error", error.map(Self.json(error:)) ?? .null),
    ])
  }

  static func json(header: HTTPHeader) -> JSONValue {
    .object([("name", .string(header.name)), ("value", .string(header.value))])
  }

  static func json(error: WebPage.NavigationError) -> JSONValue {
    .object([
      ("code", .string(error.loadError?.code.description ?? error.code.description)),
      ("message", .string(FetchFailureText.message(error))),
      ("curlCode", .integer(error.curlCode)),
    ])
  }

  private static func json(subresource load: WebPage.SubresourceLoad) -> JSONValue {
    let error: String? =
      switch load.result {
      case .success: nil
      case .failure(let error as LoadError): error.description
      case .failure: "the subresource could not be loaded"
      }
    return .object([
      ("url", .string(load.subresource.url.absoluteString)),
      ("kind", .string(load.subresource.kind.rawValue)),
      ("documentURL", .string(load.documentURL.absoluteString)),
      ("status", .integer(load.response?.statusCode)),
      ("error", .string(error)),
      ("hops", .array((load.response?.hops ?? []).map(FetchStep.json(hop:)))),
    ])
  }
}

extension FetchStep {
  /// The step as JSON: `{"event": "started" | "redirect" | "committed" |
  /// "finished" | "failed", …}`; `started` has `method`, `url` and `hop`;
  /// `redirect` the redirecting `status`, its `location`, the next `url` and
  /// `hop`; `committed` `status` and `url`; `failed` `code` and `message`.
  var json: JSONValue {
    switch self {
    case .started(let method, let url, let hop):
      return .object([
        ("event", .string("started")), ("method", .string(method)), ("url", .string(url)),
        ("hop", hop.map(Self.json(hop:)) ?? .null),
      ])
    case .redirect(let from, let hop):
      return .object([
        ("event", .string("redirect")), ("status", .integer(from.status)),
        ("location", .string(from.location)), ("url", .string(from.redirectURL?.serialized)),
        ("hop", hop.map(Self.json(hop:)) ?? .null),
      ])
    case .committed(let status, _, let url):
      return .object([
        ("event", .string("committed")), ("status", .integer(status)), ("url", .string(url)),
      ])
    case .finished:
      return .object([("event", .string("finished"))])
    case .failed(let error):
      return .object([("event", .string("failed"))] + Self.members(FetchOutcome.json(error: error)))
    }
  }

  /// One request and its response: `method`, `url`, `upgradedByHSTS`,
  /// `cookie` (the Cookie header sent, or null), `cookiesSent` (the cookies,
  /// every field), `status`, `reason`, `httpVersion`, `location`, and
  /// `setCookies`: `[{"line", "accepted", "cookie", "reasons"}]`.
  static func json(hop: LoadHop) -> JSONValue {
    .object([
      ("method", .string(hop.method)),
      ("url", .string(hop.url.serialized)),
      ("upgradedByHSTS", .bool(hop.upgradedByHSTS)),
      ("cookie", .string(cookieHeader(hop))),
      ("cookiesSent", .array(hop.cookiesSent.map(JSONCookieFile.object(for:)))),
      ("status", .integer(hop.status)),
      ("reason", .string(hop.reasonPhrase)),
      ("httpVersion", .string(hop.httpVersion)),
      ("remoteAddress", .string(hop.remoteAddress)),
      ("storageAccess", .string(hop.storageAccessStatus?.rawValue)),
      ("location", .string(hop.location)),
      (
        "setCookies",
        .array(
          setCookies(of: hop).map { line, result in
            .object([
              ("line", .string(line)),
              ("accepted", .bool(result.isAccepted)),
              ("cookie", result.cookie.map(JSONCookieFile.object(for:)) ?? .null),
              ("reasons", CookieText.reasonsJSON(result.status)),
              (
                "lifetimeCap",
                result.lifetimeCap.map { cap in
                  .object([
                    ("seconds", .integer(Int(cap.seconds))),
                    ("reason", .string(cap.reason.rawValue)),
                  ])
                } ?? .null
              ),
            ])
          })
      ),
      ("cookieStoreError", .string(hop.cookieStoreError.map { "\($0)" })),
    ])
  }

  private static func members(_ object: JSONValue) -> [(String, JSONValue)] {
    if case .object(let members) = object { return members }
    return []
  }
}
