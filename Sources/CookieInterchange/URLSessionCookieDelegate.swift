import CookieCore
import Foundation
import FoundationNetworking
import Synchronization
import WebsiteDataStore

/// The session delegate of a ``URLSessionCookieBridge``: collects each
/// task's body, hands every response's `Set-Cookie` lines to the store
/// (the redirect responses' before the redirect is followed), sets the
/// Cookie header of every redirected request, and resumes the caller when
/// the task completes.
///
/// FoundationNetworking calls a delegate only for tasks made without a
/// completion handler (it follows redirects of the others by itself), so
/// the bridge's tasks have none. Callbacks come on the session's serial
/// delegate queue; what they do with the store runs in a `Task`, and the
/// redirect's completion handler is called from it. `@unchecked Sendable`:
/// `NSObject` is not `Sendable`; every mutable state is in `tasks`, behind
/// its mutex.
final class URLSessionCookieDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// One running task.
  private struct Running {
    var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
    var context: CookieRequestContext
    var body = Data()
    /// A failure to store a redirect's cookies: ends the task with it.
    var storeError: (any Error)?
  }

  private let cookieStore: HTTPCookieStore
  private let tasks = Mutex<[Int: Running]>([:])

  init(cookieStore: HTTPCookieStore) {
    self.cookieStore = cookieStore
  }

  /// Resumes `task` and waits for its end; cancelling the caller cancels it.
  func run(_ task: URLSessionDataTask, context: CookieRequestContext) async throws -> (
    Data, HTTPURLResponse
  ) {
    let identifier = task.taskIdentifier
    let box = UncheckedTask(task)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        tasks.withLock {
          $0[identifier] = Running(continuation: continuation, context: context)
        }
        // Cancelled before it started: the task is never resumed.
        if Task.isCancelled, tasks.withLock({ $0.removeValue(forKey: identifier) }) != nil {
          continuation.resume(throwing: CancellationError())
          return
        }
        box.task.resume()
      }
    } onCancel: {
      box.task.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    let identifier = task.taskIdentifier
    let reply = UncheckedHandler(completionHandler)
    guard let context = tasks.withLock({ $0[identifier]?.context }),
      let url = request.url, let next = URLSessionCookieBridge.record(url)
    else {
      reply.handler(nil)
      return
    }
    let nextContext = URLSessionCookieBridge.context(
      for: next, method: request.httpMethod ?? "GET",
      mainDocument: request.mainDocumentURL.flatMap(URLSessionCookieBridge.record),
      redirectChain: context.redirectChain + [context.url])
    let lines = URLSessionCookieBridge.setCookieLines(of: response)
    Task { [cookieStore] in
      do {
        try await cookieStore.processResponse(setCookieHeaders: lines, for: context)
      } catch {
        // The redirect is not followed; the task ends with the store's error.
        tasks.withLock { $0[identifier]?.storeError = error }
        reply.handler(nil)
        return
      }
      var request = request
      URLSessionCookieBridge.setCookieHeader(
        await cookieStore.cookies(for: nextContext).header, on: &request)
      tasks.withLock { $0[identifier]?.context = nextContext }
      reply.handler(request)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    tasks.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let running = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
      return
    }
    if let failure = running.storeError ?? error {
      let cancelled = (failure as? URLError)?.code == .cancelled
      running.continuation.resume(throwing: cancelled ? CancellationError() : failure)
      return
    }
    guard let response = task.response as? HTTPURLResponse else {
      running.continuation.resume(throwing: URLError(.badServerResponse))
      return
    }
    let lines = URLSessionCookieBridge.setCookieLines(of: response)
    let box = UncheckedResponse(response)
    Task { [cookieStore] in
      do {
        try await cookieStore.processResponse(setCookieHeaders: lines, for: running.context)
        running.continuation.resume(returning: (running.body, box.response))
      } catch {
        running.continuation.resume(throwing: error)
      }
    }
  }
}

/// Foundation's task, handler and response types are not `Sendable`; each
/// is handed across exactly once, and used from there only.
private struct UncheckedTask: @unchecked Sendable {
  let task: URLSessionDataTask
  init(_ task: URLSessionDataTask) { self.task = task }
}

private struct UncheckedHandler: @unchecked Sendable {
  let handler: (URLRequest?) -> Void
  init(_ handler: @escaping (URLRequest?) -> Void) { self.handler = handler }
}

private struct UncheckedResponse: @unchecked Sendable {
  let response: HTTPURLResponse
  init(_ response: HTTPURLResponse) { self.response = response }
}
