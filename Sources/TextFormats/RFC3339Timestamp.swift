import Foundation

/// RFC 3339 `date-time` timestamps (§5.6), as cookie files, the CLI and
/// replay scripts write them: `2026-01-01T00:00:00Z`,
/// `2026-01-01T00:00:00.123456Z`, `2026-01-01T01:00:00+01:00`.
///
/// Formatting is always in UTC (`Z`), to the microsecond (the precision
/// Chromium and Firefox keep; a whole second has no fraction). Parsing takes
/// fractional seconds of any length (kept to the nanosecond), `Z` or a numeric
/// offset, and lower-case `t` and `z` (§5.6 note). Leap seconds (`:60`) are
/// refused: the clock cannot show them.
package enum RFC3339Timestamp {
  /// Parses a timestamp; `nil` when `text` is not one.
  package static func parse(_ text: some StringProtocol) -> Date? {
    var scanner = DigitScanner(Array(text.utf8))
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
      let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2), scanner.skip(":"),
      let second = scanner.number(digits: 2)
    else { return nil }
    var nanoseconds = 0
    if scanner.skip(".") {
      guard let fraction = scanner.fractionNanoseconds() else { return nil }
      nanoseconds = fraction
    }
    var offsetSeconds = 0
    if !(scanner.skip("Z") || scanner.skip("z")) {
      let sign: Int
      if scanner.skip("+") {
        sign = 1
      } else if scanner.skip("-") {
        sign = -1
      } else {
        return nil
      }
      guard let offsetHour = scanner.number(digits: 2), scanner.skip(":"),
        let offsetMinute = scanner.number(digits: 2), offsetHour < 24, offsetMinute < 60
      else { return nil }
      offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
    }
    guard scanner.isAtEnd, (1...12).contains(month), day >= 1,
      day <= daysInMonth(month, year: year), hour < 24, minute < 60, second < 60
    else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
  }

  /// Formats `date` in UTC, to the microsecond: `2026-01-01T00:00:00Z`, or
  /// `2026-01-01T00:00:00.000250Z` when there is a fraction of a second.
  package static func format(_ date: Date) -> String {
    let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
    // Beyond what Int64 microseconds hold (±292,000 years): clamp.
    let total = Int64(max(min(micros, 9.2e18), -9.2e18))
    let (seconds, fraction) = floorDivision(total, 1_000_000)
    let (days, secondOfDay) = floorDivision(seconds, 86_400)
    let (year, month, day) = civil(fromDays: Int(days))
    let hour = Int(secondOfDay / 3600)
    let minute = Int(secondOfDay % 3600 / 60)
    let second = Int(secondOfDay % 60)
    var text =
      "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
      + "T\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
    if fraction != 0 { text += "." + padded(Int(fraction), 6) }
    return text + "Z"
  }

  /// Formats `date` in UTC to the second (for tables).
  package static func formatSeconds(_ date: Date) -> String {
    format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    var quotient = value / divisor
    var remainder = value % divisor
    if remainder < 0 {
      quotient -= 1
      remainder += divisor
    }
    return (quotient, remainder)
  }

  private static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  private static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
  /// `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
  /// `civil_from_days`).
  private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}

/// Reads fixed-width decimal fields and literal characters from ASCII bytes.
private struct DigitScanner {
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { position == bytes.count }

  /// Consumes `character` if it comes next.
  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// Consumes exactly `digits` decimal digits.
  mutating func number(digits: Int) -> Int? {
    guard position + digits <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[position..<position + digits] {
      guard let digit = Self.digit(byte) else { return nil }
      value = value * 10 + digit
    }
    position += digits
    return value
  }

  /// Consumes one or more digits after a decimal point; returns the fraction
  /// in nanoseconds (digits past the ninth are read and dropped).
  mutating func fractionNanoseconds() -> Int? {
    var nanoseconds = 0
    var scale = 100_000_000
    let start = position
    while position < bytes.count, let digit = Self.digit(bytes[position]) {
      nanoseconds += digit * scale
      scale /= 10
      position += 1
    }
    return position > start ? nanoseconds : nil
  }

  private static func digit(_ byte: UInt8) -> Int? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
  }
}
