import Foundation

/// The time stamps of libcurl's HSTS callbacks: `"YYYYMMDD HH:MM:SS"` in
/// GMT (`struct curl_hstsentry.expire`, CURLOPT_HSTSREADFUNCTION(3)).
enum CurlHSTSTime {
  /// `date` as curl's stamp, to the second (rounded down).
  static func format(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + " "
      + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2)
  }

  /// The date of curl's stamp; `nil` when it is not one (curl writes `""`
  /// for an entry that never expires).
  static func parse(_ stamp: String) -> Date? {
    let bytes = Array(stamp.utf8)
    guard bytes.count == 17, bytes[8] == UInt8(ascii: " "), bytes[11] == UInt8(ascii: ":"),
      bytes[14] == UInt8(ascii: ":")
    else { return nil }
    func number(_ range: Range<Int>) -> Int32? {
      var value: Int32 = 0
      for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int32(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
      let hour = number(9..<11), let minute = number(12..<14), let second = number(15..<17),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = month - 1
    parts.tm_mday = day
    parts.tm_hour = hour
    parts.tm_min = minute
    parts.tm_sec = second
    return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
  }
}
