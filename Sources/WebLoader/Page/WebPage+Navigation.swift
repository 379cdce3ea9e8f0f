import Synchronization
import WebsiteDataStore

extension WebPage {
  /// The events of one navigation, as a `load` method returns them:
  /// ``NavigationEvent/startedProvisionalNavigation``, any
  /// ``NavigationEvent/receivedServerRedirect``, ``NavigationEvent/committed``,
  /// ``NavigationEvent/finished``; or a thrown ``NavigationError``.
  ///
  /// The navigation runs whether or not anyone iterates; events are
  /// buffered. Iterate it once (one consumer).
  ///
  /// Its failure type is `any Error`, as WebKit's, though what it throws is
  /// always a ``NavigationError``: with a typed `throws(NavigationError)`,
  /// Swift 6.3.1 crashes compiling a `catch
  /// WebPage.NavigationError.failedProvisionalNavigation(let details)` clause
  /// around the loop (an SIL ownership verifier failure).
  public struct Navigation: AsyncSequence, Sendable {
    public typealias Element = NavigationEvent
    public typealias Failure = any Error

    /// The navigation's identity.
    public let id: NavigationID
    private let stream: AsyncStream<Result<NavigationEvent, NavigationError>>

    init(id: NavigationID, stream: AsyncStream<Result<NavigationEvent, NavigationError>>) {
      self.id = id
      self.stream = stream
    }

    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// Iterates the events; throws the navigation's error at its end.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<Result<NavigationEvent, NavigationError>>.AsyncIterator

      public mutating func next() async throws -> NavigationEvent? {
        try await base.next()?.get()
      }

      public mutating func next(isolation actor: isolated (any Actor)?) async throws
        -> NavigationEvent?
      {
        try await base.next(isolation: actor)?.get()
      }
    }
  }
}

/// The writing end of one navigation's events: yields them to the
/// ``WebPage/Navigation`` sequence and to the page's `navigations`
/// subscribers, and ends the sequence exactly once, whichever of the
/// navigation, `stopLoading()`, a newer navigation or the page's
/// deinitialisation gets there first.
final class NavigationChannel: Sendable {
  let id: WebPage.NavigationID
  private let continuation:
    AsyncStream<Result<WebPage.NavigationEvent, WebPage.NavigationError>>
      .Continuation
  private let broadcaster: Broadcaster<WebPage.NavigationUpdate>
  /// Whether the sequence has ended.
  private let ended = Mutex(false)

  /// A channel and the sequence it feeds.
  static func make(broadcaster: Broadcaster<WebPage.NavigationUpdate>) -> (
    NavigationChannel, WebPage.Navigation
  ) {
    let id = WebPage.NavigationID()
    let (stream, continuation) = AsyncStream.makeStream(
      of: Result<WebPage.NavigationEvent, WebPage.NavigationError>.self,
      bufferingPolicy: .unbounded)
    let channel = NavigationChannel(id: id, continuation: continuation, broadcaster: broadcaster)
    return (channel, WebPage.Navigation(id: id, stream: stream))
  }

  private init(
    id: WebPage.NavigationID,
    continuation: AsyncStream<Result<WebPage.NavigationEvent, WebPage.NavigationError>>
      .Continuation,
    broadcaster: Broadcaster<WebPage.NavigationUpdate>
  ) {
    self.id = id
    self.continuation = continuation
    self.broadcaster = broadcaster
  }

  /// Whether the sequence has ended.
  var isEnded: Bool { ended.withLock { $0 } }

  /// Delivers an event; after ``WebPage/NavigationEvent/finished`` the
  /// sequence ends. False (and nothing delivered) when it already ended.
  ///
  /// Delivery happens under the channel's lock, so that an event and a
  /// concurrent failure reach every consumer in one order.
  @discardableResult
  func send(_ event: WebPage.NavigationEvent) -> Bool {
    deliver(.success(event), ending: event == .finished)
  }

  /// Ends the sequence with `error`. False when it already ended.
  @discardableResult
  func fail(_ error: WebPage.NavigationError) -> Bool {
    deliver(.failure(error), ending: true)
  }

  private func deliver(
    _ result: Result<WebPage.NavigationEvent, WebPage.NavigationError>, ending: Bool
  ) -> Bool {
    ended.withLock { ended in
      guard !ended else { return false }
      ended = ending
      continuation.yield(result)
      broadcaster.publish(WebPage.NavigationUpdate(navigationID: id, result: result))
      if ending { continuation.finish() }
      return true
    }
  }
}
