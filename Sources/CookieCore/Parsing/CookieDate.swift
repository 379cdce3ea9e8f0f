/// The cookie-date algorithm of RFC 6265bis §5.1.1.
///
/// This is the lenient date parser that browsers apply to the `Expires`
/// attribute. It accepts IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`),
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`), asctime
/// (`Sun Nov  6 08:49:37 1994`) and the many broken variants servers send,
/// and rejects anything that does not name an existing date and time.
///
/// The parser works on raw octets, allocates nothing, reads no clock and
/// uses no calendar: the result is computed arithmetically (proleptic
/// Gregorian calendar, UTC, no leap seconds). Years are at most four digits
/// (§5.1.1 `year = 2*4DIGIT`), so every result lies between 1601-01-01 and
/// 9999-12-31T23:59:59Z and nothing can overflow.
public enum CookieDate {
  /// Seconds since 1970-01-01T00:00:00Z, or nil when the string is not a cookie date.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard let base = bytes.baseAddress else { return nil }
    return parse(base, count: bytes.count)
  }

  /// Seconds since 1970-01-01T00:00:00Z, or nil when the string is not a cookie date.
  public static func parse(_ string: String) -> Int64? {
    var string = string
    return string.withUTF8 { parse($0) }
  }

  /// Seconds since 1970-01-01T00:00:00Z of a UTC calendar date and time, or
  /// nil when the fields do not name an existing date and time
  /// (RFC 6265bis §5.1.1 step 5 and step 6 ranges: year 1601...9999, hour
  /// 0...23, minute and second 0...59, and a day that exists in that month).
  public static func secondsSince1970(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) -> Int64? {
    guard year >= 1601, year <= 9999, month >= 1, month <= 12, day >= 1,
      day <= daysInMonth(month, year: year), hour >= 0, hour <= 23, minute >= 0, minute <= 59,
      second >= 0, second <= 59
    else { return nil }
    let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
    return days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
  }

  // MARK: - The algorithm

  /// RFC 6265bis §5.1.1 on `count` octets at `p`.
  static func parse(_ p: UnsafePointer<UInt8>, count: Int) -> Int64? {
    if let fields = matchIMFFixdate(p, count: count) {
      return finish(fields)
    }
    return parseByTokens(p, count: count)
  }

  /// The fields of the cookie-date algorithm before steps 3-7.
  typealias Fields = (year: Int, month: Int, dayOfMonth: Int, hour: Int, minute: Int, second: Int)

  /// A shortcut for the overwhelmingly common IMF-fixdate
  /// (`Sun, 06 Nov 1994 08:49:37 GMT`) that yields exactly what step 2
  /// would: the fields, or nil when the input does not have that shape (and
  /// the general algorithm must run).
  ///
  /// Why it is equivalent: the first token is three ASCII letters that are
  /// not a month, so it matches no production; "06" can only be the
  /// day-of-month; "Nov" the month (time and day-of-month fail or are
  /// found); "1994" the year; "08:49:37" (followed by the end or a
  /// non-digit) the time. Then every flag is set and nothing after can
  /// matter.
  @inline(__always)
  static func matchIMFFixdate(_ p: UnsafePointer<UInt8>, count: Int) -> Fields? {
    guard count >= 25 else { return nil }
    guard isASCIILetter(p[0]), isASCIILetter(p[1]), isASCIILetter(p[2]), p[3] == 0x2C,
      p[4] == 0x20, matchMonth(p, 0, 3) == nil
    else { return nil }
    guard isDigit(p[5]), isDigit(p[6]), p[7] == 0x20, let month = matchMonth(p, 8, 11),
      p[11] == 0x20, isDigit(p[12]), isDigit(p[13]), isDigit(p[14]), isDigit(p[15]),
      p[16] == 0x20, isDigit(p[17]), isDigit(p[18]), p[19] == 0x3A, isDigit(p[20]),
      isDigit(p[21]), p[22] == 0x3A, isDigit(p[23]), isDigit(p[24]),
      count == 25 || !isDigit(p[25])
    else { return nil }
    return (
      year: twoDigits(p, 12) * 100 + twoDigits(p, 14), month: month,
      dayOfMonth: twoDigits(p, 5), hour: twoDigits(p, 17), minute: twoDigits(p, 20),
      second: twoDigits(p, 23)
    )
  }

  /// Steps 3-7 of RFC 6265bis §5.1.1 on the fields found in step 2.
  @inline(__always)
  static func finish(_ fields: Fields) -> Int64? {
    var year = fields.year
    // Step 3: a year-value of 70...99 means 1970...1999.
    if year >= 70 && year <= 99 {
      year += 1900
    } else if year >= 0 && year <= 69 {
      // Step 4: a year-value of 0...69 means 2000...2069.
      year += 2000
    }
    // Step 5: abort when a value is out of range.
    guard fields.dayOfMonth >= 1, fields.dayOfMonth <= 31, year >= 1601, fields.hour <= 23,
      fields.minute <= 59, fields.second <= 59
    else { return nil }
    // Step 6: the date must exist (no February 30th); step 7: return it.
    return secondsSince1970(
      year: year, month: fields.month, day: fields.dayOfMonth, hour: fields.hour,
      minute: fields.minute, second: fields.second)
  }

  /// Steps 1 and 2 of RFC 6265bis §5.1.1 (tokenising and matching the
  /// productions), then steps 3-7; no shortcut.
  static func parseByTokens(_ p: UnsafePointer<UInt8>, count: Int) -> Int64? {
    // "the various boolean flags ... are initially 'not set'".
    var foundTime = false
    var foundDayOfMonth = false
    var foundMonth = false
    var foundYear = false
    var hour = 0
    var minute = 0
    var second = 0
    var dayOfMonth = 0
    var month = 0
    var year = 0

    var i = 0
    // Step 1: divide the cookie-date into date-tokens
    // (cookie-date = *delimiter date-token-list *delimiter).
    while i < count {
      while i < count, isDelimiter(p[i]) { i += 1 }
      if i == count { break }
      let start = i
      while i < count, !isDelimiter(p[i]) { i += 1 }
      let end = i

      // Step 2: process each date-token in order; the first production
      // that matches (and whose flag is not yet set) consumes the token.
      if !foundTime, let (h, m, s) = matchTime(p, start, end) {
        // Step 2.1.
        foundTime = true
        hour = h
        minute = m
        second = s
      } else if !foundDayOfMonth, let d = matchDigits(p, start, end, min: 1, max: 2) {
        // Step 2.2.
        foundDayOfMonth = true
        dayOfMonth = d
      } else if !foundMonth, let m = matchMonth(p, start, end) {
        // Step 2.3.
        foundMonth = true
        month = m
      } else if !foundYear, let y = matchDigits(p, start, end, min: 2, max: 4) {
        // Step 2.4.
        foundYear = true
        year = y
      }
      // Once every flag is set no later token can change the result.
      if foundTime && foundDayOfMonth && foundMonth && foundYear { break }
    }

    // Step 5 (first part): abort when a part is missing.
    guard foundDayOfMonth, foundMonth, foundYear, foundTime else { return nil }
    return finish(
      (
        year: year, month: month, dayOfMonth: dayOfMonth, hour: hour, minute: minute,
        second: second
      ))
  }

  /// `delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`
  /// (everything else is a non-delimiter).
  ///
  /// A branch-free bitmap lookup: bit `b % 64` of the mask for octets
  /// `0x00...0x3F` or `0x40...0x7F`; octets `0x80...0xFF` are non-delimiters.
  @inline(__always)
  static func isDelimiter(_ b: UInt8) -> Bool {
    // 0x09, 0x20-0x2F, 0x3B-0x3F.
    let low: UInt64 = 0xF800_FFFF_0000_0200
    // 0x40, 0x5B-0x60, 0x7B-0x7E.
    let high: UInt64 = 0x7800_0001_F800_0001
    let mask = b < 0x40 ? low : (b < 0x80 ? high : 0)
    return (mask >> UInt64(b & 0x3F)) & 1 != 0
  }

  @inline(__always)
  private static func isDigit(_ b: UInt8) -> Bool {
    b &- 0x30 < 10
  }

  @inline(__always)
  private static func isASCIILetter(_ b: UInt8) -> Bool {
    (b | 0x20) &- 0x61 < 26
  }

  /// The number written by the two DIGITs at `p[i]` and `p[i + 1]`.
  @inline(__always)
  private static func twoDigits(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int {
    Int(p[i] &- 0x30) &* 10 &+ Int(p[i + 1] &- 0x30)
  }

  /// Reads `min...max` DIGITs at `start` that are followed by the end of the
  /// token or a non-digit: `min*maxDIGIT [ non-digit *OCTET ]`.
  /// Returns the number, or nil when the token does not match.
  @inline(__always)
  private static func matchDigits(
    _ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, min: Int, max: Int
  ) -> Int? {
    var value = 0
    var j = start
    // Look at up to max + 1 octets: a further DIGIT means no match.
    let limit = Swift.min(end, start + max + 1)
    while j < limit, isDigit(p[j]) {
      value = value * 10 + Int(p[j] &- 0x30)
      j += 1
    }
    let n = j - start
    return n >= min && n <= max ? value : nil
  }

  /// `time = hms-time [ non-digit *OCTET ]`,
  /// `hms-time = time-field ":" time-field ":" time-field`,
  /// `time-field = 1*2DIGIT`.
  private static func matchTime(
    _ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int
  ) -> (Int, Int, Int)? {
    var j = start
    var fields = (0, 0, 0)
    for index in 0..<3 {
      var value = 0
      let fieldStart = j
      let limit = Swift.min(end, fieldStart + 3)
      while j < limit, isDigit(p[j]) {
        value = value * 10 + Int(p[j] &- 0x30)
        j += 1
      }
      let n = j - fieldStart
      guard n >= 1, n <= 2 else { return nil }
      switch index {
      case 0: fields.0 = value
      case 1: fields.1 = value
      default: fields.2 = value
      }
      if index < 2 {
        // The first two fields must be followed by ":".
        guard j < end, p[j] == 0x3A else { return nil }
        j += 1
      }
    }
    // After the third field: end of token or a non-digit (guaranteed by the
    // two-digit limit above), then any octets.
    return fields
  }

  /// `month = ( "jan" / "feb" / ... / "dec" ) *OCTET`, case-insensitively.
  /// Returns 1...12.
  @inline(__always)
  private static func matchMonth(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    guard end - start >= 3 else { return nil }
    // OR-ing 0x20 folds ASCII upper case to lower case; no other octet maps
    // onto a lower-case letter, so the comparison below is exact.
    let key =
      UInt32(p[start] | 0x20) << 16 | UInt32(p[start + 1] | 0x20) << 8
      | UInt32(p[start + 2] | 0x20)
    switch key {
    case 0x6A_616E: return 1  // jan
    case 0x66_6562: return 2  // feb
    case 0x6D_6172: return 3  // mar
    case 0x61_7072: return 4  // apr
    case 0x6D_6179: return 5  // may
    case 0x6A_756E: return 6  // jun
    case 0x6A_756C: return 7  // jul
    case 0x61_7567: return 8  // aug
    case 0x73_6570: return 9  // sep
    case 0x6F_6374: return 10  // oct
    case 0x6E_6F76: return 11  // nov
    case 0x64_6563: return 12  // dec
    default: return nil
    }
  }

  // MARK: - Calendar arithmetic

  private static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// Days in `month` (1...12) of `year` in the proleptic Gregorian calendar.
  private static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date
  /// (Howard Hinnant's `days_from_civil`).
  @inline(__always)
  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400  // 0...399
    let shiftedMonth = month > 2 ? month - 3 : month + 9  // March = 0
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1  // 0...365
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
