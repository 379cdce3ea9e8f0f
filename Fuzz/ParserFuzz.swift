// The libFuzzer target for the Set-Cookie parser (RFC 6265bis §5.6) and the
// cookie-date parser (§5.1.1). Scripts/fuzz.sh compiles this file in one
// module with Sources/CookieCore/SameSite.swift and
// Sources/CookieCore/Parsing/*.swift, so internal helpers are visible here.
//
// Besides "never crash", every input is checked against:
// - a plain, step-by-step transcription of §5.6 on arrays (the parser under
//   test scans eight octets at a time and must agree exactly);
// - invariants of a parsed cookie (size limit, no CTL, trimmed, lower-case
//   domain, "/"-prefixed path, a description independent of the value);
// - the cookie-date shortcut against the general tokenizer, and the range
//   of every date.
// A broken invariant stops the fuzzer with a message (a deliberate trap).

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  checkSetCookie(bytes)
  checkCookieDate(bytes)
  // The tail of the input after the first ";" often looks like an
  // attribute-value; run the date parser on it too.
  if let semicolon = bytes.firstIndex(of: 0x3B) {
    checkCookieDate(UnsafeBufferPointer(rebasing: bytes[(semicolon + 1)...]))
  }
  return 0
}

// MARK: - Set-Cookie

private func checkSetCookie(_ bytes: UnsafeBufferPointer<UInt8>) {
  let result = ParsedCookie.parse(bytes)
  let array = Array(bytes)
  let expected = FuzzReference.parse(array)
  require(result == expected, "parser and reference disagree")
  require(ParsedCookie.parse(array) == result, "the [UInt8] entry point disagrees")

  let hasDisallowed = array.contains { ParsedCookie.isDisallowed($0) }
  switch result {
  case .failure(let failure):
    require((failure == .disallowedCharacter) == hasDisallowed, "CTL failure mismatch")
  case .success(let cookie):
    require(!hasDisallowed, "a line with a CTL was accepted")
    let name = Array(cookie.name.utf8)
    let value = Array(cookie.value.utf8)
    require(name.count + value.count <= 4096, "name + value over 4096 octets")
    require(!(name.isEmpty && value.isEmpty), "empty name and value")
    for octet in name + value {
      require(octet == 0x09 || (octet >= 0x20 && octet != 0x7F), "CTL in name or value")
      require(octet != 0x3B, "\";\" in name or value")
    }
    require(!name.contains(0x3D), "\"=\" in name")
    for part in [name, value] where !part.isEmpty {
      let isWSP: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
      require(!isWSP(part[0]) && !isWSP(part[part.count - 1]), "untrimmed name or value")
    }
    // Name and value are the input's octets, not repaired.
    require(String(validating: name, as: UTF8.self) != nil, "name is not valid UTF-8")
    require(String(validating: value, as: UTF8.self) != nil, "value is not valid UTF-8")
    if let domain = cookie.domain {
      require(!domain.isEmpty, "empty domain")
      require(!domain.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }, "upper case in domain")
    }
    if let path = cookie.path {
      require(path.utf8.first == 0x2F, "path without a leading \"/\"")
    }
    if let expires = cookie.expires {
      let seconds = expires.timeIntervalSince1970
      require(seconds >= -11_644_473_600 && seconds <= 253_402_300_799, "expires out of range")
    }
    // The description does not depend on the value's content.
    var other = cookie
    other.value = String(repeating: "\u{1}", count: value.count)
    require(cookie.description == other.description, "the description shows the value")
    require(
      cookie.debugDescription == other.debugDescription, "the debug description shows the value")
  }
}

// MARK: - Cookie date

private func checkCookieDate(_ bytes: UnsafeBufferPointer<UInt8>) {
  let result = CookieDate.parse(bytes)
  let general = bytes.baseAddress.flatMap { CookieDate.parseByTokens($0, count: bytes.count) }
  require(result == general, "IMF-fixdate shortcut and tokenizer disagree")
  if let result {
    require(result >= -11_644_473_600 && result <= 253_402_300_799, "date out of range")
  }
}

// MARK: - Helpers

/// Stops the fuzzer (libFuzzer then saves the input) when `condition` is false.
private func require(_ condition: Bool, _ message: StaticString) {
  if !condition {
    FileHandle.standardError.write(Data("ParserFuzz: broken invariant: \(message)\n".utf8))
    preconditionFailure()
  }
}

/// RFC 6265bis §5.6 transcribed step by step on arrays of octets.
private enum FuzzReference {
  static func parse(_ line: [UInt8]) -> Result<ParsedCookie, SetCookieParseFailure> {
    // Step 1.
    if line.contains(where: { $0 <= 0x08 || ($0 >= 0x0A && $0 <= 0x1F) || $0 == 0x7F }) {
      return .failure(.disallowedCharacter)
    }
    // Steps 2-4.
    let semicolon = line.firstIndex(of: 0x3B) ?? line.count
    let pair = Array(line[..<semicolon])
    var rest = Array(line[semicolon...])
    var name: [UInt8] = []
    var value = pair
    if let equals = pair.firstIndex(of: 0x3D) {
      name = Array(pair[..<equals])
      value = Array(pair[(equals + 1)...])
    }
    name = trim(name)
    value = trim(value)
    // Steps 5 and 6, then our UTF-8 rule.
    if name.isEmpty && value.isEmpty { return .failure(.emptyNameAndValue) }
    if name.count + value.count > 4096 { return .failure(.nameValueTooLarge) }
    guard let nameString = String(validating: name, as: UTF8.self),
      let valueString = String(validating: value, as: UTF8.self)
    else { return .failure(.invalidEncoding) }
    var cookie = ParsedCookie(name: nameString, value: valueString)

    while !rest.isEmpty {
      rest.removeFirst()
      let end = rest.firstIndex(of: 0x3B) ?? rest.count
      let av = Array(rest[..<end])
      rest = Array(rest[end...])
      var attributeName = av
      var attributeValue: [UInt8] = []
      if let equals = av.firstIndex(of: 0x3D) {
        attributeName = Array(av[..<equals])
        attributeValue = Array(av[(equals + 1)...])
      }
      attributeName = trim(attributeName)
      attributeValue = trim(attributeValue)
      if attributeValue.count > 1024 { continue }
      let text = String(decoding: attributeValue, as: UTF8.self)
      switch lowercased(attributeName) {
      case "expires":
        if let seconds = attributeValue.withUnsafeBufferPointer({ CookieDate.parse($0) }) {
          cookie.expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
      case "max-age":
        guard let first = attributeValue.first, first == 0x2D || isDigit(first) else { continue }
        let digits = attributeValue.dropFirst()
        guard digits.allSatisfy(isDigit), !(first == 0x2D && digits.isEmpty) else { continue }
        cookie.maxAge = Int64(text) ?? (first == 0x2D ? .min : .max)
      case "domain":
        guard !attributeValue.isEmpty else { continue }
        var domain = attributeValue
        if domain.first == 0x2E { domain.removeFirst() }
        cookie.domain = domain.isEmpty ? nil : String(decoding: lowered(domain), as: UTF8.self)
      case "path": cookie.path = attributeValue.first == 0x2F ? text : nil
      case "secure": cookie.secure = true
      case "httponly": cookie.httpOnly = true
      case "partitioned": cookie.partitioned = true
      case "samesite":
        switch lowercased(attributeValue) {
        case "none": cookie.sameSite = .none
        case "strict": cookie.sameSite = .strict
        case "lax": cookie.sameSite = .lax
        default: cookie.sameSite = .unspecified
        }
      default: break
      }
    }
    return .success(cookie)
  }

  static func trim(_ octets: [UInt8]) -> [UInt8] {
    let isWSP: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let first = octets.firstIndex(where: { !isWSP($0) }),
      let last = octets.lastIndex(where: { !isWSP($0) })
    else { return [] }
    return Array(octets[first...last])
  }

  static func isDigit(_ octet: UInt8) -> Bool { octet >= 0x30 && octet <= 0x39 }

  static func lowered(_ octets: [UInt8]) -> [UInt8] {
    octets.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
  }

  static func lowercased(_ octets: [UInt8]) -> String {
    String(decoding: lowered(octets), as: UTF8.self)
  }
}
