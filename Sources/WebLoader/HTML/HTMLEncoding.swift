import Foundation

/// A character encoding of the WHATWG Encoding Standard, the only encodings a
/// browser decodes web pages in (https://encoding.spec.whatwg.org/#names-and-labels).
///
/// ``name`` is the standard's canonical name (`"UTF-8"`, `"windows-1252"`,
/// `"Shift_JIS"`...); ``init(label:)`` is the standard's "get an encoding",
/// which maps every label a page or a server may use (`latin1`, `sjis`,
/// `x-gbk`...) to one of them.
public struct HTMLEncoding: Sendable, Hashable, CustomStringConvertible {
  /// The Encoding Standard's name of the encoding.
  public let name: String
  /// How the bytes are decoded.
  let decoder: HTMLDecoderKind

  private init(_ name: String, _ decoder: HTMLDecoderKind) {
    self.name = name
    self.decoder = decoder
  }

  public var description: String { name }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// "Get an encoding" (Encoding Standard §4.2): the encoding a label names,
  /// after stripping leading and trailing ASCII whitespace and ignoring ASCII
  /// case; nil for an unknown label.
  public init?(label: String) {
    let key = String(label.trimmingASCIIWhitespace).asciiLowercased
    guard let encoding = Self.labels[key] else { return nil }
    self = encoding
  }

  /// The encoding Foundation's `String.Encoding` names, when the Encoding
  /// Standard has it (`.isoLatin1` and `.ascii` are windows-1252, as in browsers).
  public init?(_ encoding: String.Encoding) {
    switch encoding {
    case .utf8: self = .utf8
    case .ascii, .isoLatin1, .windowsCP1252, .nonLossyASCII: self = .windows1252
    case .isoLatin2: self = .iso8859_2
    case .windowsCP1250: self = .windows1250
    case .windowsCP1251: self = .windows1251
    case .windowsCP1253: self = .windows1253
    case .windowsCP1254: self = .windows1254
    case .shiftJIS: self = .shiftJIS
    case .japaneseEUC: self = .eucJP
    case .iso2022JP: self = .iso2022JP
    case .utf16BigEndian: self = .utf16BE
    case .utf16LittleEndian, .utf16: self = .utf16LE
    case .macOSRoman: self = .macintosh
    default: return nil
    }
  }

  /// UTF-8, the encoding of every new document.
  public static let utf8 = HTMLEncoding("UTF-8", .utf8)
  /// windows-1252, which the standard also uses for `iso-8859-1` and `ascii`;
  /// the fallback when nothing declares an encoding.
  public static let windows1252 = HTMLEncoding("windows-1252", .windows1252)
  /// UTF-16 big-endian.
  public static let utf16BE = HTMLEncoding("UTF-16BE", .utf16(bigEndian: true))
  /// UTF-16 little-endian (also the label `utf-16`).
  public static let utf16LE = HTMLEncoding("UTF-16LE", .utf16(bigEndian: false))
  /// ISO-8859-2 (Latin-2, Central European).
  public static let iso8859_2 = HTMLEncoding("ISO-8859-2", .iconv("ISO-8859-2"))
  /// Shift_JIS as browsers decode it (Microsoft's code page 932).
  public static let shiftJIS = HTMLEncoding("Shift_JIS", .iconv("CP932"))
  /// EUC-JP.
  public static let eucJP = HTMLEncoding("EUC-JP", .iconv("EUC-JP"))
  /// ISO-2022-JP.
  public static let iso2022JP = HTMLEncoding("ISO-2022-JP", .iconv("ISO-2022-JP"))
  /// windows-1250.
  public static let windows1250 = HTMLEncoding("windows-1250", .iconv("CP1250"))
  /// windows-1251.
  public static let windows1251 = HTMLEncoding("windows-1251", .iconv("CP1251"))
  /// windows-1253.
  public static let windows1253 = HTMLEncoding("windows-1253", .iconv("CP1253"))
  /// windows-1254 (also ISO-8859-9).
  public static let windows1254 = HTMLEncoding("windows-1254", .iconv("CP1254"))
  /// macintosh (Mac OS Roman).
  public static let macintosh = HTMLEncoding("macintosh", .iconv("MACINTOSH"))
  /// x-user-defined: ASCII, and bytes 0x80–0xFF to U+F780–U+F7FF.
  public static let xUserDefined = HTMLEncoding("x-user-defined", .xUserDefined)
  /// The replacement encoding, for labels of encodings that are unsafe to
  /// decode (ISO-2022-KR, HZ...): any content decodes to one U+FFFD.
  public static let replacement = HTMLEncoding("replacement", .replacement)

  /// Every encoding of the standard, by its labels (Encoding Standard §4.2,
  /// https://encoding.spec.whatwg.org/encodings.json).
  static let labels: [String: HTMLEncoding] = {
    var table: [String: HTMLEncoding] = [:]
    func add(_ encoding: HTMLEncoding, _ labels: [String]) {
      for label in labels { table[label] = encoding }
    }
    func iconv(_ name: String, _ converter: String, _ labels: [String]) {
      add(HTMLEncoding(name, .iconv(converter)), labels)
    }
    add(
      .utf8,
      [
        "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8",
        "x-unicode20utf8",
      ])
    iconv("IBM866", "IBM866", ["866", "cp866", "csibm866", "ibm866"])
    add(
      .iso8859_2,
      [
        "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2",
        "iso_8859-2:1987", "l2", "latin2",
      ])
    iconv(
      "ISO-8859-3", "ISO-8859-3",
      [
        "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3",
        "iso_8859-3:1988", "l3", "latin3",
      ])
    iconv(
      "ISO-8859-4", "ISO-8859-4",
      [
        "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4",
        "iso_8859-4:1988", "l4", "latin4",
      ])
    iconv(
      "ISO-8859-5", "ISO-8859-5",
      [
        "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595",
        "iso_8859-5", "iso_8859-5:1988",
      ])
    iconv(
      "ISO-8859-6", "ISO-8859-6",
      [
        "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114",
        "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596",
        "iso_8859-6", "iso_8859-6:1987",
      ])
    iconv(
      "ISO-8859-7", "ISO-8859-7",
      [
        "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126",
        "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek",
      ])
    iconv(
      "ISO-8859-8", "ISO-8859-8",
      [
        "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138",
        "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual",
      ])
    iconv("ISO-8859-8-I", "ISO-8859-8", ["csiso88598i", "iso-8859-8-i", "logical"])
    iconv(
      "ISO-8859-10", "ISO-8859-10",
      ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"])
    iconv("ISO-8859-13", "ISO-8859-13", ["iso-8859-13", "iso8859-13", "iso885913"])
    iconv("ISO-8859-14", "ISO-8859-14", ["iso-8859-14", "iso8859-14", "iso885914"])
    iconv(
      "ISO-8859-15", "ISO-8859-15",
      ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"])
    iconv("ISO-8859-16", "ISO-8859-16", ["iso-8859-16"])
    iconv("KOI8-R", "KOI8-R", ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"])
    iconv("KOI8-U", "KOI8-U", ["koi8-ru", "koi8-u"])
    add(.macintosh, ["csmacintosh", "mac", "macintosh", "x-mac-roman"])
    iconv(
      "windows-874", "CP874",
      ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"])
    add(.windows1250, ["cp1250", "windows-1250", "x-cp1250"])
    add(.windows1251, ["cp1251", "windows-1251", "x-cp1251"])
    add(
      .windows1252,
      [
        "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1",
        "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1",
        "us-ascii", "windows-1252", "x-cp1252",
      ])
    add(.windows1253, ["cp1253", "windows-1253", "x-cp1253"])
    add(
      .windows1254,
      [
        "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9",
        "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254",
      ])
    iconv("windows-1255", "CP1255", ["cp1255", "windows-1255", "x-cp1255"])
    iconv("windows-1256", "CP1256", ["cp1256", "windows-1256", "x-cp1256"])
    iconv("windows-1257", "CP1257", ["cp1257", "windows-1257", "x-cp1257"])
    iconv("windows-1258", "CP1258", ["cp1258", "windows-1258", "x-cp1258"])
    iconv("x-mac-cyrillic", "MAC-CYRILLIC", ["x-mac-cyrillic", "x-mac-ukrainian"])
    // The standard decodes GBK with the gb18030 decoder.
    iconv(
      "GBK", "GB18030",
      [
        "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
        "iso-ir-58", "x-gbk",
      ])
    iconv("gb18030", "GB18030", ["gb18030"])
    iconv("Big5", "BIG5-HKSCS", ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"])
    add(.eucJP, ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"])
    add(.iso2022JP, ["csiso2022jp", "iso-2022-jp"])
    add(
      .shiftJIS,
      [
        "csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j",
        "x-sjis",
      ])
    // The standard's EUC-KR is Microsoft's superset (code page 949).
    iconv(
      "EUC-KR", "CP949",
      [
        "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987",
        "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949",
      ])
    add(
      .replacement,
      ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement"])
    add(.utf16BE, ["unicodefffe", "utf-16be"])
    add(
      .utf16LE,
      ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"])
    add(.xUserDefined, ["x-user-defined"])
    return table
  }()

  /// Every distinct encoding of the table (for tests).
  static var all: [HTMLEncoding] { Array(Set(labels.values)).sorted { $0.name < $1.name } }
}

/// How an ``HTMLEncoding`` turns bytes into text.
enum HTMLDecoderKind: Sendable, Hashable {
  case utf8
  case utf16(bigEndian: Bool)
  case windows1252
  case xUserDefined
  case replacement
  /// glibc iconv, by its converter name.
  case iconv(String)
}
