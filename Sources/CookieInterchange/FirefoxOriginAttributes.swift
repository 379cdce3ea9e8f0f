import WebsiteDataStore

/// The origin attributes of a Firefox cookie, parsed from the suffix stored
/// in `moz_cookies.originAttributes` as `OriginAttributes::PopulateFromSuffix`
/// (`caps/OriginAttributes.cpp`) parses it.
///
/// The suffix is empty (all defaults) or `^` followed by
/// `application/x-www-form-urlencoded` pairs joined by `&`, e.g.
/// `^userContextId=2&partitionKey=%28https%2Cexample.com%29`. Names and values
/// are decoded (`+` is a space, `%XX` a byte); in `firstPartyDomain` and
/// `partitionKey` a decoded `+` then stands for `:`. `appId` and `addonId`
/// (obsolete) are ignored, `inBrowser` must be `1`, and any other name makes
/// the whole suffix invalid, as in Firefox.
struct FirefoxOriginAttributes: Hashable {
  /// The container (`userContextId`); 0 is the default, no container.
  var userContextID = 0
  /// Non-zero for private browsing (`privateBrowsingId`).
  var privateBrowsingID = 0
  /// The first party of first-party isolation (`firstPartyDomain`); empty
  /// when not isolated.
  var firstPartyDomain = ""
  /// A GeckoView session context (`geckoViewUserContextId`); empty when none.
  var geckoViewUserContextID = ""
  /// The partition (`partitionKey`); `nil` when unpartitioned.
  var partitionKey: FirefoxPartitionKey?

  /// The default attributes (the empty suffix).
  init() {}

  /// Parses a stored suffix.
  ///
  /// - Throws: ``CookieRowProblem`` for a suffix Firefox would not accept.
  init(suffix: String) throws(CookieRowProblem) {
    guard !suffix.isEmpty else { return }
    guard suffix.hasPrefix("^") else {
      throw CookieRowProblem("originAttributes does not start with ^")
    }
    let pairs = Array(suffix.utf8.dropFirst()).split(separator: UInt8(ascii: "&"))
    for pair in pairs {
      let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
      let name = Self.formDecode(pair[..<equals])
      let value = Self.formDecode(equals < pair.endIndex ? pair[(equals + 1)...] : [])
      try apply(name: name, value: value)
    }
  }

  /// Sets the attribute `name` from its decoded `value`.
  private mutating func apply(name: String, value: String) throws(CookieRowProblem) {
    switch name {
    case "appId", "addonId":
      return  // obsolete; Firefox ignores them
    case "inBrowser":
      guard value == "1" else { throw CookieRowProblem("originAttributes has inBrowser≠1") }
    case "userContextId":
      userContextID = try Self.identifier(value, name: name)
    case "privateBrowsingId":
      privateBrowsingID = try Self.identifier(value, name: name)
    case "firstPartyDomain":
      firstPartyDomain = value.replacing("+", with: ":")
    case "geckoViewUserContextId":
      geckoViewUserContextID = value
    case "partitionKey":
      let key = value.replacing("+", with: ":")
      partitionKey = key.isEmpty ? nil : try FirefoxPartitionKey(parsing: key)
    default:
      throw CookieRowProblem("originAttributes has an unknown attribute")
    }
  }

  /// A 32-bit unsigned decimal identifier.
  private static func identifier(_ value: String, name: String) throws(CookieRowProblem) -> Int {
    guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let number = Int(value), number <= Int(UInt32.max)
    else { throw CookieRowProblem("originAttributes has a \(name) that is not a number") }
    return number
  }

  /// `application/x-www-form-urlencoded` decoding, as Firefox's
  /// `URLParams::Parse`: `+` is a space, `%XX` is the byte XX, and a `%` not
  /// followed by two hex digits stays as it is. Invalid UTF-8 is repaired.
  static func formDecode(_ text: ArraySlice<UInt8>) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count)
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), index + 2 < text.endIndex,
        let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 2
      } else {
        bytes.append(byte)
      }
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
