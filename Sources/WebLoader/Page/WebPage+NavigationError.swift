import Foundation

extension WebPage {
  /// Why a navigation ended without finishing: thrown by the sequence a
  /// `load` method returns, and delivered by ``WebPage/navigations``.
  ///
  /// Equality compares the code only. A transport failure carries the
  /// loader's ``LoadError`` (with libcurl's `CURLcode`) as ``underlying``.
  public struct NavigationError: Error, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable, extensible code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(_ name: String) { self.name = name }
      public var description: String { name }

      /// The main document could not be loaded: the host did not resolve,
      /// the connection was refused or timed out, TLS failed, the scheme
      /// handler threw... (WebKit's `failedProvisionalNavigation`). See
      /// ``NavigationError/loadError`` for curl's code.
      public static let failedProvisionalNavigation = Code("failed-provisional-navigation")
      /// The redirect chain exceeded the transport's `redirectLimit`.
      public static let tooManyRedirects = Code("too-many-redirects")
      /// ``WebPage/stopLoading()`` was called, or a newer navigation
      /// replaced this one before it finished.
      public static let cancelled = Code("cancelled")
      /// The navigation decider cancelled the navigation action (the first
      /// request or a redirect) or the response (WebKit's
      /// `frameLoadInterruptedByPolicyChange`).
      public static let frameLoadInterruptedByPolicyChange = Code(
        "frame-load-interrupted-by-policy-change")
      /// The page was deallocated while the navigation was running.
      public static let pageClosed = Code("page-closed")
      /// The URL cannot be loaded: not a URL, or a scheme that is neither
      /// http(s), `about:blank`, nor one with a ``URLSchemeHandler``.
      public static let invalidURL = Code("invalid-url")
      /// The page's website data store could not be opened (the default
      /// persistent store: wrong key, damaged file...), or the loader
      /// refused the configuration.
      public static let dataStoreUnavailable = Code("data-store-unavailable")
      /// ``WebPage/submit(_:using:)`` was given a form it cannot submit:
      /// the submitter is not one of its submit buttons, its action is not
      /// an http(s) URL, or its method is `dialog` (see ``underlying``, an
      /// ``HTMLFormError``).
      public static let invalidFormSubmission = Code("invalid-form-submission")
    }

    /// The kind of failure.
    public let code: Code
    /// A human-readable message; never a cookie or header value.
    public let message: String
    /// The URL the failure concerns, when there is one.
    public let url: URL?
    /// The underlying error: a ``LoadError``, a ``WebsiteDataStoreError``, or
    /// what a ``URLSchemeHandler`` threw.
    public let underlying: (any Error & Sendable)?
    /// The main resource's hops that got a response before the failure, in
    /// order (each redirect the navigation received, with the cookies sent
    /// and the `Set-Cookie` results): what ``Response/hops`` would have held.
    /// Empty when no response arrived, or the failure was not a network
    /// load's.
    public let hops: [LoadHop]

    /// Creates an error.
    public init(
      _ code: Code, _ message: String, url: URL? = nil, underlying: (any Error & Sendable)? = nil,
      hops: [LoadHop] = []
    ) {
      self.code = code
      self.message = message
      self.url = url
      self.underlying = underlying
      self.hops = hops
    }

    /// The loader's error, for a transport failure.
    public var loadError: LoadError? { underlying as? LoadError }

    /// libcurl's `CURLcode`, for a transport failure that came from libcurl.
    public var curlCode: Int? { loadError?.curlCode }

    public var description: String {
      var text = "\(code): \(message)"
      if let underlying { text += " (\(underlying))" }
      return text
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
  }
}
