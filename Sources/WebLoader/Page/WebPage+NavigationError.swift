import Foundation

extension WebPage {
  /// Why a navigation ended without finishing: thrown by the sequence a
  /// `load` method returns, and delivered by ``WebPage/navigations``.
  ///
  /// An enum, as WebKit's is, so that a catch clause can match a case
  /// (`catch WebPage.NavigationError.failedProvisionalNavigation(let
  /// details)`, `catch WebPage.NavigationError.frameLoadInterruptedByPolicyChange`
  /// for a decider's deliberate cancellation); each case carries the same
  /// ``Details``, also read through ``code``, ``message``, ``url``,
  /// ``underlying`` and ``hops``.
  ///
  /// Equality compares the case only. A transport failure carries the
  /// loader's ``LoadError`` (with libcurl's `CURLcode`) as ``underlying``.
  public enum NavigationError: Error, Hashable, CustomStringConvertible {
    /// The main document could not be loaded (see ``Code/failedProvisionalNavigation``).
    case failedProvisionalNavigation(Details)
    /// See ``Code/tooManyRedirects``.
    case tooManyRedirects(Details)
    /// Stopped or replaced (see ``Code/cancelled``).
    case cancelled(Details)
    /// The decider cancelled, on purpose (see ``Code/frameLoadInterruptedByPolicyChange``).
    case frameLoadInterruptedByPolicyChange(Details)
    /// See ``Code/pageClosed``.
    case pageClosed(Details)
    /// See ``Code/invalidURL``.
    case invalidURL(Details)
    /// See ``Code/dataStoreUnavailable``.
    case dataStoreUnavailable(Details)
    /// See ``Code/invalidFormSubmission``.
    case invalidFormSubmission(Details)

    /// What every case tells: a message, the URL, the underlying error and
    /// the hops received.
    public struct Details: Sendable, CustomStringConvertible {
      /// A human-readable message; never a cookie or header value.
      public let message: String
      /// The URL the failure concerns, when there is one.
      public let url: URL?
      /// The underlying error: a ``LoadError``, a ``WebsiteDataStoreError``,
      /// an ``HTMLFormError``, or what a ``URLSchemeHandler`` threw.
      public let underlying: (any Error & Sendable)?
      /// The main resource's hops that got a response before the failure,
      /// in order (see ``NavigationError/hops``).
      public let hops: [LoadHop]

      public var description: String {
        underlying.map { "\(message) (\($0))" } ?? message
      }
    }

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

    /// Creates an error of the case `code` names.
    public init(
      _ code: Code, _ message: String, url: URL? = nil, underlying: (any Error & Sendable)? = nil,
      hops: [LoadHop] = []
    ) {
      let details = Details(message: message, url: url, underlying: underlying, hops: hops)
      let cases: [(Code, (Details) -> Self)] = [
        (.failedProvisionalNavigation, Self.failedProvisionalNavigation),
        (.tooManyRedirects, Self.tooManyRedirects), (.cancelled, Self.cancelled),
        (.frameLoadInterruptedByPolicyChange, Self.frameLoadInterruptedByPolicyChange),
        (.pageClosed, Self.pageClosed), (.invalidURL, Self.invalidURL),
        (.dataStoreUnavailable, Self.dataStoreUnavailable),
        (.invalidFormSubmission, Self.invalidFormSubmission),
      ]
      self = cases.first { $0.0 == code }?.1(details) ?? .failedProvisionalNavigation(details)
    }

    /// The case's code.
    public var code: Code {
      switch self {
      case .failedProvisionalNavigation: .failedProvisionalNavigation
      case .tooManyRedirects: .tooManyRedirects
      case .cancelled: .cancelled
      case .frameLoadInterruptedByPolicyChange: .frameLoadInterruptedByPolicyChange
      case .pageClosed: .pageClosed
      case .invalidURL: .invalidURL
      case .dataStoreUnavailable: .dataStoreUnavailable
      case .invalidFormSubmission: .invalidFormSubmission
      }
    }

    /// The case's details.
    public var details: Details {
      switch self {
      case .failedProvisionalNavigation(let details), .tooManyRedirects(let details),
        .cancelled(let details), .frameLoadInterruptedByPolicyChange(let details),
        .pageClosed(let details), .invalidURL(let details), .dataStoreUnavailable(let details),
        .invalidFormSubmission(let details):
        details
      }
    }

    /// A human-readable message; never a cookie or header value.
    public var message: String { details.message }
    /// The URL the failure concerns, when there is one.
    public var url: URL? { details.url }
    /// The underlying error (see ``Details/underlying``).
    public var underlying: (any Error & Sendable)? { details.underlying }
    /// The main resource's hops that got a response before the failure, in
    /// order (each redirect the navigation received, with the cookies sent
    /// and the `Set-Cookie` results): what ``Response/hops`` would have held.
    /// Empty when no response arrived, or the failure was not a network
    /// load's.
    public var hops: [LoadHop] { details.hops }

    /// The loader's error, for a transport failure.
    public var loadError: LoadError? { underlying as? LoadError }

    /// libcurl's `CURLcode`, for a transport failure that came from libcurl.
    public var curlCode: Int? { loadError?.curlCode }

    public var description: String { "\(code): \(details)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
  }
}
