extension URLRecord.Parser {
  /// The path state of the basic URL parser (WHATWG URL Standard §4.4 "URL
  /// parsing", https://url.spec.whatwg.org/#path-state) for a special URL,
  /// starting a new segment at `start`.
  ///
  /// Segments end at `/`, `\`, `?`, `#` or the end of input. Each is
  /// percent-encoded with the path percent-encode set; a single-dot segment
  /// (`.`, `%2e`) is dropped and a double-dot segment (`..`, `.%2e`, `%2e.`,
  /// `%2e%2e`, any case) removes the previous one ("shorten a URL's path").
  /// When such a segment is the last, an empty segment takes its place, so
  /// `/a/..` becomes `/`.
  mutating func pathState(at start: Int) {
    var index = start
    var segmentStart = path.count
    path.append(UInt8(ascii: "/"))
    while true {
      let byte = byte(at: index)
      switch byte {
      case nil, UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"):
        let continues = byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
        let segment = path[(segmentStart + 1)...]
        if URLRecord.Parser.isDoubleDotSegment(segment) {
          path.removeSubrange(segmentStart...)
          shortenPath()
          if !continues { appendEmptySegment() }
        } else if URLRecord.Parser.isSingleDotSegment(segment) {
          path.removeSubrange(segmentStart...)
          if !continues { appendEmptySegment() }
        } else {
          segmentStarts.append(segmentStart)
        }
        switch byte {
        case UInt8(ascii: "?"):
          queryState(at: index + 1)
          return
        case UInt8(ascii: "#"):
          fragmentState(at: index + 1)
          return
        case nil:
          return
        default:
          segmentStart = path.count
          path.append(UInt8(ascii: "/"))
        }
      case let byte?:
        URLRecord.PercentEncodeSet.path.encode(byte, into: &path)
      }
      index += 1
    }
  }

  /// "Shorten a URL's path" (§4.2 "URL miscellaneous"): removes the last
  /// segment, if any.
  mutating func shortenPath() {
    guard let last = segmentStarts.popLast() else { return }
    path.removeSubrange(last...)
  }

  private mutating func appendEmptySegment() {
    segmentStarts.append(path.count)
    path.append(UInt8(ascii: "/"))
  }

  /// The query state (§4.4, https://url.spec.whatwg.org/#query-state): up to
  /// `#` or the end, percent-encoded with the special-query percent-encode set.
  mutating func queryState(at start: Int) {
    var end = start
    while end < input.count, input[end] != UInt8(ascii: "#") { end += 1 }
    var encoded: [UInt8] = []
    URLRecord.PercentEncodeSet.specialQuery.encode(input[start..<end], into: &encoded)
    query = encoded
    if end < input.count {
      fragmentState(at: end + 1)
    }
  }

  /// The fragment state (§4.4, https://url.spec.whatwg.org/#fragment-state):
  /// the rest, percent-encoded with the fragment percent-encode set.
  mutating func fragmentState(at start: Int) {
    var encoded: [UInt8] = []
    if start < input.count {
      URLRecord.PercentEncodeSet.fragment.encode(input[start...], into: &encoded)
    }
    fragment = encoded
  }

  /// A single-dot URL path segment (§4.1): `.` or `%2e`, ASCII
  /// case-insensitively.
  static func isSingleDotSegment(_ segment: ArraySlice<UInt8>) -> Bool {
    switch segment.count {
    case 1: segment.first == UInt8(ascii: ".")
    case 3: isEncodedDot(segment, at: segment.startIndex)
    default: false
    }
  }

  /// A double-dot URL path segment (§4.1): `..`, `.%2e`, `%2e.` or `%2e%2e`,
  /// ASCII case-insensitively.
  static func isDoubleDotSegment(_ segment: ArraySlice<UInt8>) -> Bool {
    let start = segment.startIndex
    let dot = UInt8(ascii: ".")
    switch segment.count {
    case 2:
      return segment[start] == dot && segment[start + 1] == dot
    case 4:
      return (segment[start] == dot && isEncodedDot(segment, at: start + 1))
        || (isEncodedDot(segment, at: start) && segment[start + 3] == dot)
    case 6:
      return isEncodedDot(segment, at: start) && isEncodedDot(segment, at: start + 3)
    default:
      return false
    }
  }

  /// Whether `segment[index..<index + 3]` is `%2e` or `%2E`.
  private static func isEncodedDot(_ segment: ArraySlice<UInt8>, at index: Int) -> Bool {
    segment[index] == UInt8(ascii: "%") && segment[index + 1] == UInt8(ascii: "2")
      && segment[index + 2] | 0x20 == UInt8(ascii: "e")
  }
}
