import Foundation
import TextFormats
import WebsiteData

/// The time syntax of replay scripts and of `--since`: RFC 3339 timestamps
/// and whole-unit durations.
enum ReplayTime {
  /// The clock of a replay before any `now` directive, as scripts write it.
  static let initialTimeText = "2026-01-01T00:00:00Z"
  /// ``initialTimeText`` as a date.
  static let initialTime = Date(timeIntervalSince1970: 1_767_225_600)

  /// Parses an RFC 3339 `date-time` (§5.6): `2026-01-01T00:00:00Z`, with
  /// optional fractional seconds and either `Z` or a numeric offset
  /// (`+01:00`). See ``RFC3339Timestamp``.
  static func timestamp(_ text: Substring) -> Date? { RFC3339Timestamp.parse(text) }

  /// Parses a duration: a whole number and a unit, `s`, `m`, `h` or `d`
  /// (`90s`, `2m`, `1h`, `400d`). Returns seconds.
  static func duration(_ text: Substring) -> Double? {
    guard let unit = text.last, text.count >= 2 else { return nil }
    let multiplier: Double
    switch unit {
    case "s": multiplier = 1
    case "m": multiplier = 60
    case "h": multiplier = 3600
    case "d": multiplier = 86_400
    default: return nil
    }
    let digits = text.dropLast()
    guard digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let count = Int(digits)
    else { return nil }
    return Double(count) * multiplier
  }

  /// Parses a `--since` value: a duration before `now` (`2h`) or an RFC 3339
  /// time.
  static func since(_ text: String, now: Date) -> Date? {
    if let seconds = duration(Substring(text)) { return now.addingTimeInterval(-seconds) }
    return timestamp(Substring(text))
  }
}
