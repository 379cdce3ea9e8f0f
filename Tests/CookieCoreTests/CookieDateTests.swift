import CookieCore
import Foundation
import Testing

/// RFC 6265bis §5.1.1, the cookie-date algorithm.
@Suite("CookieDate (RFC 6265bis §5.1.1)")
struct CookieDateTests {
  /// 1994-11-06T08:49:37Z, the RFC 9110 example date.
  static let nov1994: Int64 = 784_111_777

  static let vectors: [(String, Int64?)] = [
    // The three forms of RFC 9110 §5.6.7.
    ("Sun, 06 Nov 1994 08:49:37 GMT", nov1994),  // IMF-fixdate
    ("Sunday, 06-Nov-94 08:49:37 GMT", nov1994),  // RFC 850
    ("Sun Nov  6 08:49:37 1994", nov1994),  // asctime
    ("Wed, 09 Jun 2021 10:18:14 GMT", 1_623_233_894),
    ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
    ("Jan 1 1970 00:00:00", 0),
    ("Wed, 31 Dec 1969 23:59:59 GMT", -1),
    ("Sat, 24 Feb 2035 13:09:59 GMT", 2_055_935_399),
    // Order of the tokens does not matter; extra tokens are ignored.
    ("1994 Nov 06 08:49:37", nov1994),
    ("08:49:37 6 nov 1994", nov1994),
    ("Sun, 06 Nov 1994 08:49:37 GMT+0200", nov1994),  // the zone is not parsed
    ("  ,,Sun, 06 Nov 1994 08:49:37 GMT;  ", nov1994),
    ("Sun,06-Nov-1994/08:49:37", nov1994),
    // Case-insensitive months, only the first three letters count.
    ("06 NOV 1994 08:49:37", nov1994),
    ("06 november 1994 08:49:37", nov1994),
    ("06 Novxyz 1994 08:49:37", nov1994),
    // Trailing non-digits are allowed after every numeric production.
    ("06th Nov 1994 08:49:37", nov1994),
    ("06 Nov 1994AD 08:49:37", nov1994),
    ("06 Nov 1994 08:49:37xyz", nov1994),
    ("06 Nov 1994 08:49:37:99", nov1994),
    ("06 Nov 1994 8:9:7", 784_109_347),
    // The first match of each kind wins.
    ("06 Nov 1994 08:49:37 07 Dec 1995 09:00:00", nov1994),
    // A second time-shaped token is read as the day-of-month ("09" then ":").
    ("08:49:37 09:00:00 Nov 1994", 784_370_977),
    // Two-digit years: 70-99 → 19xx, 00-69 → 20xx.
    ("06 Nov 70 08:49:37", 26_729_377),
    ("06 Nov 99 08:49:37", 941_878_177),
    ("06 Nov 00 08:49:37", 973_500_577),
    ("06 Nov 69 08:49:37", 3_150_953_377),
    // Four digits are taken as written; 0070 is "70" and so 1970.
    ("06 Nov 0070 08:49:37", 26_729_377),
    // The range of years: 1601 to 9999.
    ("Mon, 01 Jan 1601 00:00:00 GMT", -11_644_473_600),
    ("Sun, 31 Dec 1600 23:59:59 GMT", nil),
    ("01 Jan 1600 00:00:00", nil),
    ("01 Jan 999 00:00:00", nil),  // three digits: 999 < 1601
    ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
    ("31 Dec 10000 23:59:59", nil),  // five digits are no year
    // Leap years (February 29th) and dates that do not exist.
    ("29 Feb 2000 00:00:00", 951_782_400),
    ("29 Feb 2024 12:00:00", 1_709_208_000),
    ("29 Feb 2023 12:00:00", nil),
    ("29 Feb 2100 00:00:00", nil),
    ("29 Feb 1900 00:00:00", nil),
    ("30 Feb 2024 00:00:00", nil),
    ("31 Apr 2024 00:00:00", nil),
    ("31 Jun 2024 00:00:00", nil),
    ("31 Dec 2024 00:00:00", 1_735_603_200),
    // Field ranges.
    ("00 Jan 2024 00:00:00", nil),
    ("32 Jan 2024 00:00:00", nil),
    ("01 Jan 2024 24:00:00", nil),
    ("01 Jan 2024 23:60:00", nil),
    ("01 Jan 2024 23:59:60", nil),  // no leap seconds
    ("01 Jan 2024 23:59:59", 1_704_153_599),
    // A missing part.
    ("Sun, 06 Nov 1994 GMT", nil),
    ("Sun, 06 1994 08:49:37 GMT", nil),
    ("Sun, Nov 1994 08:49:37 GMT", nil),  // "1994" is no day (more than two digits)
    ("Sun, 06 Nov 08:49:37 GMT", nil),
    // Malformed numbers.
    ("06 Nov 1994 108:49:37", nil),
    ("06 Nov 1994 08:49:370", nil),
    ("06 Nov 1994 08:49", nil),  // "08:49" is no time, and the day is taken
    ("006 Nov 1994 08:49:37", nil),
    ("Nov 6 9 08:49:37", nil),  // a one-digit year does not exist
    // ISO 8601 is not a cookie-date ("06T08:49:37Z" is not a time).
    ("1994-11-06T08:49:37Z", nil),
    // Junk.
    ("", nil),
    ("   ", nil),
    ("junk", nil),
    ("a date", nil),
    ("0", nil),
    ("-1", nil),
    ("Tomorrow", nil),
    ("Jan", nil),
    ("Ja 06 1994 08:49:37", nil),
  ]

  @Test("vectors", arguments: vectors)
  func vector(_ input: String, _ expected: Int64?) {
    #expect(CookieDate.parse(input) == expected, "\(input)")
    // The byte entry point agrees.
    let bytes = Array(input.utf8)
    #expect(bytes.withUnsafeBufferPointer { CookieDate.parse($0) } == expected)
  }

  /// Control characters and octets above 0x7F are non-delimiters
  /// (`non-delimiter = %x00-08 / %x0A-1F / DIGIT / ":" / ALPHA / %x7F-FF`):
  /// they end a number but do not split a token.
  @Test func nonDelimiterOctets() {
    func parse(_ bytes: [UInt8]) -> Int64? {
      bytes.withUnsafeBufferPointer { CookieDate.parse($0) }
    }
    let tail = Array(" Nov 1994 08:49:37".utf8)
    #expect(parse([0x30, 0x36, 0x00] + tail) == Self.nov1994)  // "06\0"
    #expect(parse([0x30, 0x36, 0xFF] + tail) == Self.nov1994)  // "06\xFF"
    #expect(parse([0x30, 0x36, 0x7F] + tail) == Self.nov1994)
    // HTAB is a delimiter.
    #expect(parse([0x30, 0x36, 0x09] + tail) == Self.nov1994)
    // "\x01" glued in front of the day makes that token no day-of-month.
    #expect(parse([0x01, 0x30, 0x36] + tail) == nil)
    // Non-ASCII month letters do not match.
    #expect(CookieDate.parse("06 Növ 1994 08:49:37") == nil)
  }

  /// Prepending a delimiter never changes the result (the algorithm ignores
  /// leading delimiters). That holds for inputs that take the IMF-fixdate
  /// shortcut and for their delimiter-prefixed twins, which do not, so this
  /// checks the shortcut against the general algorithm.
  @Test func shortcutAgreesWithTokenizer() {
    var random = ParserTestRandom(seed: 0x6265_6269_7364_6174)
    let pieces = [
      "Sun, ", "Mon, ", "Jan, ", "sUn, ", "06 ", "6 ", "31 ", "29 ", "00 ", "Nov ", "Feb ", "nov ",
      "1994 ", "2024 ", "1600 ", "0070 ", "70 ", "08:49:37", "23:59:59", "24:00:00", "8:49:37",
      "08:49:370", " GMT", "x", "0", ":", "-", ",", " ", "\t",
    ]
    let base = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)
    for _ in 0..<20_000 {
      var bytes: [UInt8]
      if random.next() % 2 == 0 {
        // A mutated IMF-fixdate: change, insert or delete a few octets.
        bytes = base
        for _ in 0..<Int(random.next() % 3 + 1) {
          let index = Int(random.next() % UInt64(bytes.count))
          let alphabet = Array("0123456789:, -AaZzNnOoVvJjEeBb\u{7F}".utf8) + [0x00, 0x09, 0xC3]
          let octet = alphabet[Int(random.next() % UInt64(alphabet.count))]
          switch random.next() % 3 {
          case 0: bytes[index] = octet
          case 1: bytes.insert(octet, at: index)
          default: if bytes.count > 1 { bytes.remove(at: index) }
          }
        }
      } else {
        // A random sequence of plausible pieces.
        bytes = []
        for _ in 0..<Int(random.next() % 7 + 1) {
          bytes += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8)
        }
      }
      let direct = bytes.withUnsafeBufferPointer { CookieDate.parse($0) }
      let prefixed = ([0x20] + bytes).withUnsafeBufferPointer { CookieDate.parse($0) }
      #expect(direct == prefixed, "\(bytes)")
    }
  }

  /// The arithmetic agrees with Foundation's Gregorian calendar from 1601
  /// to 9999 (both proleptic Gregorian after 1582).
  @Test func arithmeticMatchesFoundationCalendar() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
    var random = ParserTestRandom(seed: 1601)
    for _ in 0..<3_000 {
      let year = 1601 + Int(random.next() % 8399)
      let month = 1 + Int(random.next() % 12)
      let day = 1 + Int(random.next() % 28)
      let hour = Int(random.next() % 24)
      let minute = Int(random.next() % 60)
      let second = Int(random.next() % 60)
      let components = DateComponents(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
      let date = try #require(calendar.date(from: components))
      let ours = CookieDate.secondsSince1970(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
      #expect(ours == Int64(date.timeIntervalSince1970), "\(components)")
    }
  }

  @Test func secondsSince1970RejectsImpossibleDates() {
    #expect(
      CookieDate.secondsSince1970(year: 2024, month: 2, day: 30, hour: 0, minute: 0, second: 0)
        == nil)
    #expect(
      CookieDate.secondsSince1970(year: 2024, month: 13, day: 1, hour: 0, minute: 0, second: 0)
        == nil)
    #expect(
      CookieDate.secondsSince1970(year: 2024, month: 0, day: 1, hour: 0, minute: 0, second: 0)
        == nil)
    #expect(
      CookieDate.secondsSince1970(year: 1600, month: 12, day: 31, hour: 0, minute: 0, second: 0)
        == nil)
    #expect(
      CookieDate.secondsSince1970(year: 10000, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        == nil)
    #expect(
      CookieDate.secondsSince1970(year: 2024, month: 1, day: 1, hour: -1, minute: 0, second: 0)
        == nil)
    #expect(
      CookieDate.secondsSince1970(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0) == 0)
  }

  /// Every day of every month from 1969 to 2401 that exists parses, and
  /// consecutive days are 86,400 seconds apart.
  @Test func everyDayIsOneDayLater() {
    let months = [
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    var previous: Int64? = nil
    for year in 1969...2401 {
      for (index, month) in months.enumerated() {
        for day in 1...31 {
          guard let seconds = CookieDate.parse("\(day) \(month) \(year) 00:00:00") else {
            // Only days past the end of the month may fail.
            #expect(day >= 29, "\(day) \(month) \(year)")
            #expect(
              CookieDate.secondsSince1970(
                year: year, month: index + 1, day: day, hour: 0, minute: 0, second: 0) == nil)
            continue
          }
          if let previous { #expect(seconds - previous == 86_400, "\(day) \(month) \(year)") }
          previous = seconds
        }
      }
    }
  }
}

/// A small deterministic generator (SplitMix64) for reproducible random tests.
struct ParserTestRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
