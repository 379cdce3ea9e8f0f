import Foundation
import WebsiteDataStore

/// The time encodings of browsers' cookie databases.
enum BrowserTime {
  /// Microseconds from 1601-01-01 to 1970-01-01 UTC (Windows FILETIME epoch),
  /// as in Chromium's `base::Time::kTimeTToMicrosecondsOffset`.
  static let chromiumEpochOffset: Int64 = 11_644_473_600_000_000

  /// A Chromium `base::Time` as stored (`ToDeltaSinceWindowsEpoch`):
  /// microseconds since 1601-01-01 00:00 UTC.
  static func chromium(_ microseconds: Int64) -> Date {
    let (unix, overflow) = microseconds.subtractingReportingOverflow(chromiumEpochOffset)
    return Date(
      timeIntervalSince1970: overflow
        ? -Double(chromiumEpochOffset) / 1e6 : Double(unix) / 1e6)
  }

  /// The Chromium encoding of `date` (for tests that build databases).
  static func chromiumMicroseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1e6).rounded()) + chromiumEpochOffset
  }

  /// Microseconds since 1970-01-01 UTC (Firefox's `creationTime`,
  /// `lastAccessed`, `updateTime`).
  static func unixMicroseconds(_ value: Int64) -> Date {
    Date(timeIntervalSince1970: Double(value) / 1e6)
  }

  /// Milliseconds since 1970-01-01 UTC (Firefox's `expiry` from schema 16).
  static func unixMilliseconds(_ value: Int64) -> Date {
    Date(timeIntervalSince1970: Double(value) / 1e3)
  }

  /// Seconds since 1970-01-01 UTC (Firefox's `expiry` before schema 16).
  static func unixSeconds(_ value: Int64) -> Date {
    Date(timeIntervalSince1970: Double(value))
  }
}
