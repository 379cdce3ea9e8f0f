/// The `srcset` attribute microsyntax (HTML §4.8.4.3.10 "parse a srcset
/// attribute"): image candidates, each a URL and its descriptors.
enum SourceSet {
  /// One candidate: a URL and its descriptors (`2x`, `300w`), lower-cased.
  struct Candidate: Sendable, Hashable {
    let url: String
    let descriptors: [String]
  }

  /// The candidates of a `srcset` value. URLs may contain commas (only
  /// trailing commas end them); descriptors end at a comma outside
  /// parentheses.
  static func candidates(_ input: String) -> [Candidate] {
    let characters = Array(input)
    var position = 0
    var result: [Candidate] = []
    while true {
      while position < characters.count,
        HTMLText.isWhitespace(characters[position]) || characters[position] == ","
      {
        position += 1
      }
      guard position < characters.count else { return result }
      let start = position
      while position < characters.count, !HTMLText.isWhitespace(characters[position]) {
        position += 1
      }
      var url = String(characters[start..<position])
      var descriptors: [String] = []
      if url.hasSuffix(",") {
        while url.hasSuffix(",") { url.removeLast() }
      } else {
        descriptors = collectDescriptors(characters, &position)
      }
      if !url.isEmpty { result.append(Candidate(url: url, descriptors: descriptors)) }
    }
  }

  /// The descriptor tokenizer: whitespace-separated tokens up to a comma
  /// outside parentheses; leaves `position` after that comma.
  private static func collectDescriptors(_ characters: [Character], _ position: inout Int)
    -> [String]
  {
    var descriptors: [String] = []
    var current = ""
    var inParentheses = false
    func flush() {
      if !current.isEmpty { descriptors.append(current.asciiLowercased) }
      current = ""
    }
    while position < characters.count {
      let character = characters[position]
      position += 1
      if inParentheses {
        current.append(character)
        if character == ")" { inParentheses = false }
      } else if character == "," {
        break
      } else if HTMLText.isWhitespace(character) {
        flush()
      } else {
        if character == "(" { inParentheses = true }
        current.append(character)
      }
    }
    flush()
    return descriptors
  }
}
