import Foundation

/// The time syntax of replay scripts: RFC 3339 timestamps for `now` and
/// whole-unit durations for `advance`.
enum ReplayTime {
  /// The clock of a replay before any `now` directive, as scripts write it.
  static let initialTimeText = "2026-01-01T00:00:00Z"
  /// ``initialTimeText`` as a date.
  static let initialTime = Date(timeIntervalSince1970: 1_767_225_600)

  /// Parses an RFC 3339 `date-time` (§5.6): `2026-01-01T00:00:00Z`, with
  /// optional fractional seconds and either `Z` or a numeric offset
  /// (`+01:00`). `T` and `Z` may be lower-case (§5.6 note). Leap seconds
  /// (`:60`) are not accepted: the clock cannot show them.
  static func timestamp(_ text: Substring) -> Date? {
    var scanner = DigitScanner(Array(text.utf8))
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
      let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2), scanner.skip(":"),
      let second = scanner.number(digits: 2)
    else { return nil }
    var fraction = 0.0
    if scanner.skip(".") {
      guard let digits = scanner.fractionDigits() else { return nil }
      fraction = digits
    }
    var offsetSeconds = 0
    if scanner.skip("Z") || scanner.skip("z") {
      offsetSeconds = 0
    } else {
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
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

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

  /// Consumes one or more digits after a decimal point; returns the fraction.
  mutating func fractionDigits() -> Double? {
    var value = 0.0
    var scale = 0.1
    let start = position
    while position < bytes.count, let digit = Self.digit(bytes[position]) {
      value += Double(digit) * scale
      scale /= 10
      position += 1
    }
    return position > start ? value : nil
  }

  private static func digit(_ byte: UInt8) -> Int? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
  }
}
