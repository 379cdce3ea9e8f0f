import Foundation
import FoundationNetworking

extension WebPage {
  /// `about:blank`, the base URL of documents loaded without one.
  public nonisolated static let aboutBlank = URL(string: "about:blank")!  // a valid constant

  /// Navigates to `url` (http, https, a scheme with a handler, or
  /// `about:blank`). See ``load(_:)-(URLRequest)``.
  @discardableResult
  public func load(_ url: URL) -> Navigation {
    load(URLRequest(url: url))
  }

  /// Navigates with `request`: its URL, method, header fields and body.
  ///
  /// Any running navigation ends with ``NavigationError/Code/cancelled``.
  /// The decider (if any) decides on the request, then on each redirect,
  /// then on the response; the response then becomes the page's document
  /// (``NavigationEvent/committed``) and, with
  /// ``Configuration/loadsSubresources``, its subresources load before
  /// ``NavigationEvent/finished``.
  ///
  /// The navigation runs whether or not the returned sequence is iterated.
  @discardableResult
  public func load(_ request: URLRequest) -> Navigation {
    start(.request(request), type: .other)
  }

  /// Shows `html` as a document at `baseURL` (its relative URLs resolve
  /// against it, and its subresources are third parties unless same-site
  /// with it). No request is made for the document itself.
  @discardableResult
  public func load(html: String, baseURL: URL = WebPage.aboutBlank) -> Navigation {
    start(.html(html, baseURL: baseURL), type: .other)
  }

  /// Shows `data` as a document of type `mimeType` at `baseURL`; HTML is
  /// decoded with `characterEncoding` (a byte order mark still wins).
  @discardableResult
  public func load(
    _ data: Data, mimeType: String, characterEncoding: String.Encoding, baseURL: URL
  ) -> Navigation {
    start(
      .data(data, mimeType: mimeType, encoding: characterEncoding, baseURL: baseURL), type: .other)
  }

  /// Shows `responseHTML` as if `simulatedRequest` had returned it: the
  /// page's URL is the request's, and no request is made for the document.
  @discardableResult
  public func load(simulatedRequest: URLRequest, responseHTML: String) -> Navigation {
    start(.simulated(simulatedRequest, html: responseHTML), type: .other)
  }

  /// Goes to a back/forward list item, loading its document again (there is
  /// no page cache): the list keeps its items and moves its current one.
  @discardableResult
  public func load(_ item: BackForwardList.Item) -> Navigation {
    start(item.source, type: .backForward, item: item.id)
  }

  /// Goes to the previous item, if any.
  @discardableResult
  public func goBack() -> Navigation? {
    backForwardList.backItem.map { load($0) }
  }

  /// Goes to the next item, if any.
  @discardableResult
  public func goForward() -> Navigation? {
    backForwardList.forwardItem.map { load($0) }
  }

  /// Loads the current document again, from the network (there is no
  /// cache). Without a current document the navigation fails with
  /// ``NavigationError/Code/invalidURL``.
  @discardableResult
  public func reload() -> Navigation {
    guard let item = backForwardList.currentItem else {
      let (channel, navigation) = NavigationChannel.make(broadcaster: updates)
      channel.fail(NavigationError(.invalidURL, "there is no document to reload"))
      return navigation
    }
    return start(item.source, type: .reload, item: item.id)
  }

  /// Stops the running navigation: its sequence throws
  /// ``NavigationError/Code/cancelled`` and its transfers are aborted. A
  /// committed document stays; subresources still loading are abandoned.
  public func stopLoading() {
    guard let (channel, task) = running.withLock({ $0 }) else { return }
    endRunning(channel.id)
    let error = NavigationError(.cancelled, "the navigation was stopped")
    if channel.fail(error) {
      currentNavigationEvent = NavigationUpdate(navigationID: channel.id, result: .failure(error))
    }
    task.cancel()
  }

  /// Submits `form` with `submitter` (one of its ``HTMLForm/submitButtons``;
  /// nil for a submission without a button): the request of
  /// ``HTMLForm/submission(using:)``, as a navigation of type
  /// ``NavigationType/formSubmitted`` that the form's document initiated,
  /// so the store sees a same-site or cross-site request as a browser would
  /// (a cross-site POST carries no `SameSite=Lax` cookie).
  ///
  /// The form may come from any document (usually the page's own,
  /// ``document``, filled with ``HTMLForm/filling(_:)``). When it cannot be
  /// submitted, the navigation fails with
  /// ``NavigationError/Code/invalidFormSubmission`` and the form's
  /// ``HTMLFormError`` as its underlying error.
  @discardableResult
  public func submit(_ form: HTMLForm, using submitter: HTMLFormControl? = nil) -> Navigation {
    let submission: HTMLFormSubmission
    do {
      submission = try form.submission(using: submitter)
    } catch {
      let (channel, navigation) = NavigationChannel.make(broadcaster: updates)
      channel.fail(
        NavigationError(
          .invalidFormSubmission, "the form cannot be submitted (\(error.code))",
          url: form.action, underlying: error))
      return navigation
    }
    return start(
      .initiated(submission.urlRequest, by: submission.initiator), type: .formSubmitted)
  }

  /// Starts a navigation, replacing the running one.
  private func start(
    _ source: NavigationSource, type: NavigationType, item: BackForwardList.Item.ID? = nil
  ) -> Navigation {
    let type =
      source.isFormPost && (type == .reload || type == .backForward) ? .formResubmitted : type
    if let (previous, task) = running.withLock({ $0 }) {
      let error = NavigationError(.cancelled, "a newer navigation replaced it")
      if previous.fail(error) {
        currentNavigationEvent = NavigationUpdate(
          navigationID: previous.id, result: .failure(error))
      }
      task.cancel()
    }
    let (channel, navigation) = NavigationChannel.make(broadcaster: updates)
    let runner = NavigationRunner(
      page: self, channel: channel, source: source, type: type, item: item,
      configuration: configuration)
    isLoading = true
    estimatedProgress = 0
    let task = Task { await runner.run() }
    running.withLock { $0 = (channel, task) }
    return navigation
  }

  /// Forgets the running navigation `id` (it ended); true when it was the
  /// running one.
  @discardableResult
  func endRunning(_ id: NavigationID) -> Bool {
    let wasRunning = running.withLock { running in
      guard running?.0.id == id else { return false }
      running = nil
      return true
    }
    if wasRunning { isLoading = false }
    return wasRunning
  }
}
