import Foundation
import Synchronization

/// Where a store gets the current time. Injected so that tests and replay
/// scripts control time; CookieCore itself never reads a clock.
public protocol StoreClock: Sendable {
  /// The current time.
  func now() -> Date
}

/// The system's wall clock.
public struct SystemStoreClock: StoreClock {
  /// Creates the system clock.
  public init() {}

  public func now() -> Date { Date() }
}

/// A clock that moves only when told to (tests, `sitedata replay`).
///
/// Thread-safe: the time is held in a `Mutex`.
public final class ManualStoreClock: StoreClock {
  private let time: Mutex<Date>

  /// A clock stopped at `start`.
  public init(_ start: Date) { time = Mutex(start) }

  public func now() -> Date { time.withLock { $0 } }

  /// Sets the time.
  public func set(_ date: Date) { time.withLock { $0 = date } }

  /// Moves the time forward by `seconds`.
  public func advance(by seconds: TimeInterval) { time.withLock { $0.addTimeInterval(seconds) } }
}

/// The former name of ``StoreClock`` (it times HSTS entries too).
@available(*, deprecated, renamed: "StoreClock")
public typealias CookieClock = StoreClock

/// The former name of ``SystemStoreClock``.
@available(*, deprecated, renamed: "SystemStoreClock")
public typealias SystemCookieClock = SystemStoreClock

/// The former name of ``ManualStoreClock``.
@available(*, deprecated, renamed: "ManualStoreClock")
public typealias ManualCookieClock = ManualStoreClock
