internal import CIDN2
internal import CPSL
import CookieCore
import Foundation
import Synchronization

/// Domain facts backed by the system's public suffix list (libpsl) and by
/// IDNA / UTS #46 processing (libidn2).
///
/// ## Which list
/// `init()` prefers the newest list on the system: `psl_latest(NULL)` compares
/// the distribution file (`psl_dist_filename()`, on Debian
/// `/usr/share/publicsuffix/public_suffix_list.dafsa` from the `publicsuffix`
/// package) with the list compiled into libpsl and returns whichever is
/// newer. Only if that fails does it fall back to `psl_builtin()`. If libpsl
/// has no data at all, only the implicit `"*"` rule applies (see below) and
/// ``source`` says so. ``source`` names the list in use.
///
/// ## Which rules
/// Cookies use the whole list, ICANN and private sections alike, as Chromium
/// and Firefox do: `psl_is_public_suffix2(ctx, name, PSL_TYPE_ANY)`.
///
/// The implicit `"*"` rule of the PSL algorithm applies, that is, we do *not*
/// pass `PSL_TYPE_NO_STAR_RULE`. A label that is not a known TLD counts as a
/// public suffix, as in Chromium (`INCLUDE_UNKNOWN_REGISTRIES` in its cookie
/// code) and in RFC 6265bis, which defers to the PSL algorithm:
/// - `isPublicSuffix("localhost")` and `isPublicSuffix("unknowntld")` are
///   `true`, and `registrableDomain("localhost")` is `nil`; so a host such
///   as `localhost` gets host-only cookies but can never set a domain cookie
///   for a shorter name.
/// - `registrableDomain("a.b.unknowntld")` is `"b.unknowntld"`.
///
/// ## Name rules (the same for both PSL functions)
/// - ASCII letters are lower-cased; other bytes are passed on unchanged
///   (libpsl also matches lower-case UTF-8 U-labels, but callers should pass
///   the output of ``asciiDomain(_:)``).
/// - One trailing dot (the DNS root) is ignored for the lookup and kept in the
///   result: `registrableDomain("home.example.org.")` is `"example.org."` and
///   `isPublicSuffix("co.uk.")` is `true`. libpsl 0.21 does not do this on its
///   own (it calls `"co.uk."` no public suffix).
/// - A name with an empty label anywhere else (`""`, `"."`, `".com"`,
///   `"a..b"`, `"example.com.."`) or with a NUL byte is malformed: it has no
///   registrable domain and counts as a public suffix, so that no cookie can
///   be scoped to it. (Chromium likewise gives names with several trailing
///   dots no registry.)
/// - IP addresses are the caller's business; if one is passed anyway (a name
///   containing `:` or `[`, or whose last label is a decimal or `0x` number,
///   as the WHATWG host parser would read as IPv4) it has no registrable
///   domain and is not a public suffix.
///
/// ## Thread safety and caching
/// The class is `@unchecked Sendable` because it stores the libpsl context
/// as an `OpaquePointer`. The context is set once in `init` and freed once in
/// `deinit`; in between, libpsl only reads it (`psl_is_public_suffix2` and
/// `psl_registrable_domain` take a `const psl_ctx_t *` and keep no state), so
/// it needs no lock. libidn2 keeps no shared state either. The only mutable
/// state, the memo tables, is guarded by the `Mutex` ``cache``; no C call is
/// made while that lock is held. Each table holds at most 50,000 entries
/// (``cacheCapacity``) and is emptied when full; a hit costs about 70–90 ns,
/// a libpsl lookup 300–850 ns, a libidn2 conversion about 4 µs.
public final class PublicSuffixDomainFacts: DomainNameSharing, @unchecked Sendable {
  /// The process-wide instance, created on first use (Swift initialises
  /// `static let` lazily and exactly once).
  public static let shared = PublicSuffixDomainFacts()

  /// Entries each memo table holds before it is emptied: enough for the
  /// hosts a busy loader or a 200k-cookie jar meets (a full table is emptied
  /// at once, so a too-small one thrashes; ~100 bytes per entry).
  static let cacheCapacity = 262_144

  /// Which public suffix list is in use: a file path or `"built-in"`, its
  /// date where known, and the libpsl version.
  public let source: String

  /// The libpsl context; `nil` only when libpsl has no data at all. Immutable
  /// after `init` (see the type's thread-safety notes).
  private let context: OpaquePointer?

  /// Whether `deinit` must `psl_free` ``context``: true for contexts that
  /// `psl_latest` or `psl_load_file` allocated, never for `psl_builtin()`.
  private let ownsContext: Bool

  /// The memo tables: the one piece of shared mutable state.
  let cache = Mutex(MemoTables())

  /// Loads the newest public suffix list on the system.
  ///
  /// Wraps `psl_latest(NULL)` (newest of the distribution file and the
  /// built-in data), falling back to `psl_builtin()`.
  public convenience init() {
    let builtin = psl_builtin()
    let version = Self.libraryVersion
    if let latest = psl_latest(nil) {
      if latest == builtin {
        self.init(
          context: latest, owned: false, source: "built-in, \(Self.builtinDescription); \(version)")
      } else {
        let path = Self.inferredLatestPath() ?? "system list"
        self.init(context: latest, owned: true, source: "\(path); \(version)")
      }
    } else if let builtin {
      self.init(
        context: builtin, owned: false, source: "built-in, \(Self.builtinDescription); \(version)")
    } else {
      self.init(
        context: nil, owned: false,
        source: "none: implicit \"*\" rule only; \(version) has no list data")
    }
  }

  /// Loads the public suffix list in the file at `path`, in the text format
  /// (`public_suffix_list.dat`) or as a DAFSA blob; `nil` if libpsl cannot
  /// read it. Wraps `psl_load_file`.
  public convenience init?(listFile path: String) {
    guard !path.utf8.contains(0), let loaded = psl_load_file(path) else { return nil }
    self.init(
      context: loaded, owned: true,
      source: "\(Self.describeFile(path)); \(Self.libraryVersion)")
  }

  private init(context: OpaquePointer?, owned: Bool, source: String) {
    self.context = context
    self.ownsContext = owned
    self.source = source
  }

  deinit {
    // The built-in context is static data inside libpsl and must never be
    // freed; `ownsContext` is false for it.
    if ownsContext, let context, context != psl_builtin() {
      psl_free(context)
    }
  }

  // MARK: - DomainFacts

  /// The lower-case ASCII form of `domain` per UTS #46 non-transitional
  /// processing, as the WHATWG URL Standard's "domain to ASCII" (with
  /// `beStrict` false) does it; `nil` when it cannot be converted or the
  /// result is empty.
  ///
  /// Pure-ASCII names with no label starting `xn--` need no IDNA work (UTS #46
  /// maps only upper-case letters among ASCII when `UseSTD3ASCIIRules` is
  /// false): they are lower-cased without a C call. Anything else goes to
  /// `idn2_to_ascii_8z(…, IDN2_NONTRANSITIONAL)`, without
  /// `IDN2_USE_STD3_ASCII_RULES` (the URL Standard sets it false).
  ///
  /// libidn2 2.3 checks labels against the stricter IDNA2008 tables, so it
  /// rejects symbols and emoji that UTS #46 and browsers accept (`"☕.us"` →
  /// `"xn--53h.us"`) with `IDN2_DISALLOWED`. On that error only we retry with
  /// `IDN2_TRANSITIONAL`, which uses the UTS #46 tables, unless the name has
  /// a deviation character (ß, ς, ZWJ, ZWNJ; also ẞ), the one thing that
  /// transitional processing maps differently. wget and curl retry
  /// transitionally on any error; we do not, because transitional mode skips
  /// the Bidi and ContextJ checks that the URL Standard requires.
  ///
  /// Known differences from the URL Standard, all giving `nil` where a
  /// browser gives a name: a non-ASCII name whose label starts or ends with
  /// `-` or has `--` in positions 3–4 (libidn2 always applies CheckHyphens);
  /// such a name with a label over 63 or a total over 255 octets (libidn2
  /// always verifies DNS lengths); a deviation character in the same name as
  /// a symbol libidn2 disallows. Conversely a name that has a disallowed symbol and also
  /// breaks the Bidi rule may be accepted by the transitional retry.
  public func asciiDomain(_ domain: String) -> String? {
    switch Self.asciiShape(of: domain) {
    case .invalid: return nil
    case .ready: return domain
    case .needsLowercasing: return Self.asciiLowercased(domain)
    case .needsIDNA: break
    }
    if let hit = cache.withLock({ $0.ascii[domain] }) { return hit }
    let result = Self.idnaToASCII(domain)
    cache.withLock { $0.ascii.insert(result, for: domain) }
    return result
  }

  /// The registrable domain (eTLD+1) of `host`, or `nil` when `host` is a
  /// public suffix, malformed or an IP address (see the type's name rules).
  /// What `psl_registrable_domain` answers (see ``walkedRegistrableDomain(_:)``).
  public func registrableDomain(_ host: String) -> String? {
    var host = host
    let hit = host.withUTF8 { bytes in
      let key = LockedKey(bytes: bytes)
      return cache.withLock { tables -> (String??, UInt64) in
        let hash = tables.registrable.hash(key.bytes)
        return (tables.registrable.value(forUTF8: key.bytes, hash: hash), hash)
      }
    }
    if let found = hit.0 { return found }
    let result = walkedRegistrableDomain(host)
    cache.withLock { $0.registrable.insert(result, for: host, hash: hit.1) }
    return result
  }

  /// ``registrableDomain(_:)`` without its own memo table: the walk of
  /// `psl_registrable_domain` (libpsl 0.21: from the left, the last label
  /// suffix that is not a public suffix before the first that is), with
  /// each suffix asked of ``isPublicSuffix(utf8:)``, whose memo table the
  /// names of one site share (`www.example.com` and `api.example.com` ask
  /// libpsl about `example.com` once). A test checks it against
  /// `psl_registrable_domain`. Names longer than a DNS name can be
  /// (``memoizedNameLimit``) go to libpsl directly, so that the memo table
  /// never holds the thousands of long suffixes of an absurd name.
  ///
  /// A plain name (``isPlainName(_:)``, the common case) is walked on the
  /// host's own bytes, with no classified copy; the host itself is returned
  /// when it is its own registrable domain.
  func walkedRegistrableDomain(_ host: String) -> String? {
    guard host.utf8.count <= Self.memoizedNameLimit else { return uncachedRegistrableDomain(host) }
    if context != nil {
      var plain = host
      let walked = plain.withUTF8 { bytes -> (isPlain: Bool, found: String?) in
        guard Self.isPlainName(bytes) else { return (false, nil) }
        return (
          true,
          registrableSuffix(in: bytes).map { suffix in
            suffix.start == 0 ? host : suffix.name
          }
        )
      }
      if walked.isPlain { return walked.found }
    }
    guard case .name(var name, let trailingDot) = Self.hostShape(of: host) else { return nil }
    guard context != nil else {
      return Self.starRuleRegistrableDomain(name).map { trailingDot ? $0 + "." : $0 }
    }
    let found = name.withUTF8 { registrableSuffix(in: $0)?.name }
    guard let found else { return nil }
    return trailingDot ? found + "." : found
  }

  /// The walk of ``walkedRegistrableDomain(_:)`` on the bytes of a name that
  /// ``isPlainName(_:)`` accepts (a classified name is one): where its
  /// registrable domain starts and that suffix as a `String` (the memo
  /// table's key, shared, so the walk makes no second copy of it), or `nil`
  /// when it has none.
  ///
  /// Every suffix after a dot of a plain name is plain too (no empty label,
  /// the same last byte and last label), so libpsl is asked about each one
  /// without classifying it again.
  private func registrableSuffix(
    in bytes: UnsafeBufferPointer<UInt8>
  ) -> (start: Int, name: String)? {
    var start = 0
    var registrable: (start: Int, name: String)?
    while true {
      let suffix = lookUpPublicSuffix(
        UnsafeBufferPointer(rebasing: bytes[start...]), sharingName: true, isPlain: true)
      if suffix.isPublicSuffix { break }
      guard let period = bytes[start...].firstIndex(of: dot) else { break }
      registrable = (
        start,
        suffix.name
          ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
      )
      start = period + 1
    }
    return registrable
  }

  /// Whether `domain` is a public suffix: listed in the ICANN or private
  /// section, matched by a wildcard, or a single unknown label (the implicit
  /// `"*"` rule). Malformed names count as public suffixes; IP addresses do
  /// not. Wraps `psl_is_public_suffix2(ctx, name, PSL_TYPE_ANY)`.
  public func isPublicSuffix(_ domain: String) -> Bool {
    var domain = domain
    return domain.withUTF8 { isPublicSuffix(utf8: $0) }
  }

  /// ``isPublicSuffix(_:)`` of a name given as its UTF-8 bytes: the memo
  /// table is consulted without making a `String`.
  public func isPublicSuffix(utf8 domain: UnsafeBufferPointer<UInt8>) -> Bool {
    lookUpPublicSuffix(domain, sharingName: false).isPublicSuffix
  }

  /// ``isPublicSuffix(utf8:)`` and the memo table's key for the name (made
  /// when the name is first asked about), which a cookie's domain can share.
  package func publicSuffixLookup(
    sharingName domain: UnsafeBufferPointer<UInt8>
  ) -> (isPublicSuffix: Bool, name: String?) {
    lookUpPublicSuffix(domain, sharingName: true)
  }

  /// The memo table, then libpsl; the key `String` only when `sharingName`.
  /// `isPlain`: the caller knows that ``isPlainName(_:)`` accepts `domain`.
  private func lookUpPublicSuffix(
    _ domain: UnsafeBufferPointer<UInt8>, sharingName: Bool, isPlain: Bool = false
  ) -> (isPublicSuffix: Bool, name: String?) {
    let key = LockedKey(bytes: domain)
    let hit = cache.withLock { tables -> (entry: (key: String?, value: Bool)?, hash: UInt64) in
      let hash = tables.publicSuffix.hash(key.bytes)
      return (tables.publicSuffix.entry(forUTF8: key.bytes, hash: hash, withKey: sharingName), hash)
    }
    if let found = hit.entry { return (found.value, found.key) }
    let result =
      isPlain ? uncachedIsPublicSuffix(plainName: domain) : uncachedIsPublicSuffix(utf8: domain)
    let name = String(decoding: domain, as: UTF8.self)
    if domain.count <= Self.memoizedNameLimit {
      cache.withLock { $0.publicSuffix.insert(result, for: name, hash: hit.hash) }
    }
    return (result, sharingName ? name : nil)
  }

  /// The longest name the memo tables keep: 253 octets, the longest DNS name
  /// (RFC 1035 §2.3.4, without the root dot) plus room for one.
  static let memoizedNameLimit = 254

  // MARK: - Uncached lookups

  /// ``registrableDomain(_:)`` without the memo table.
  func uncachedRegistrableDomain(_ host: String) -> String? {
    guard case .name(let name, let trailingDot) = Self.hostShape(of: host) else { return nil }
    let found: String?
    if let context {
      found = name.withCString { base -> String? in
        guard let match = psl_registrable_domain(context, base) else { return nil }
        // libpsl returns a pointer into `base`, at a label start; nothing to free.
        let offset = base.distance(to: match)
        guard offset >= 0, offset < name.utf8.count else { return nil }
        return String(decoding: name.utf8.dropFirst(offset), as: UTF8.self)
      }
    } else {
      found = Self.starRuleRegistrableDomain(name)
    }
    guard let found else { return nil }
    return trailingDot ? found + "." : found
  }

  /// ``isPublicSuffix(_:)`` without the memo table.
  func uncachedIsPublicSuffix(_ domain: String) -> Bool {
    var domain = domain
    return domain.withUTF8 { uncachedIsPublicSuffix(utf8: $0) }
  }

  /// ``uncachedIsPublicSuffix(_:)`` of a name's bytes. A name that needs no
  /// change (see ``isPlainName(_:)``) goes to libpsl from a copy on the
  /// stack; any other through ``hostShape(of:)``.
  func uncachedIsPublicSuffix(utf8 domain: UnsafeBufferPointer<UInt8>) -> Bool {
    guard Self.isPlainName(domain) else {
      return uncachedIsPublicSuffix(
        shape: Self.hostShape(of: String(decoding: domain, as: UTF8.self)))
    }
    return uncachedIsPublicSuffix(plainName: domain)
  }

  /// ``uncachedIsPublicSuffix(utf8:)`` of a name that ``isPlainName(_:)``
  /// accepts: libpsl, from a NUL-terminated copy on the stack.
  private func uncachedIsPublicSuffix(plainName domain: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let context else { return !domain.contains(dot) }
    let type = Int32(PSL_TYPE_ANY)
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: domain.count + 1) { name in
      guard let base = name.baseAddress, let bytes = domain.baseAddress else { return false }
      UnsafeMutableRawPointer(base).copyMemory(from: bytes, byteCount: domain.count)
      base[domain.count] = 0
      return psl_is_public_suffix2(context, base, type) == 1
    }
  }

  /// Whether ``hostShape(of:)`` would pass `bytes` on unchanged as a name:
  /// not empty, no empty label, no trailing dot, no NUL, `:` or `[`, no
  /// upper-case letter, and a last label that is not a number.
  static func isPlainName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, first != dot, bytes.last != dot else { return false }
    var previous: UInt8 = 0
    var lastLabel = 0
    for index in bytes.indices {
      let byte = bytes[index]
      // Lower-case letters (and every octet above them) need no look.
      if byte < UInt8(ascii: "a") {
        switch byte {
        case 0, UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "A")...UInt8(ascii: "Z"):
          return false
        case dot:
          if previous == dot { return false }
          lastLabel = index &+ 1
        default: break
        }
      }
      previous = byte
    }
    return !lastLabelIsNumber(UnsafeBufferPointer(rebasing: bytes[lastLabel...]))
  }

  /// ``isPublicSuffix(_:)`` of a classified name, without the memo table.
  private func uncachedIsPublicSuffix(shape: HostShape) -> Bool {
    switch shape {
    case .malformed: return true
    case .ipAddress: return false
    case .name(let name, _):
      guard let context else { return !name.utf8.contains(UInt8(ascii: ".")) }
      let type = Int32(PSL_TYPE_ANY)
      return name.withCString { psl_is_public_suffix2(context, $0, type) } == 1
    }
  }
}

// MARK: - Name classification

extension PublicSuffixDomainFacts {
  /// What a host name looks like to the PSL functions.
  enum HostShape: Equatable {
    /// Empty label other than the root, or a NUL byte.
    case malformed
    /// IPv6 (`:` or `[`) or a last label the IPv4 parser would take.
    case ipAddress
    /// ASCII-lower-cased name without its root dot, and whether it had one.
    case name(String, trailingDot: Bool)
  }

  static func hostShape(of host: String) -> HostShape {
    let bytes = host.utf8
    guard let first = bytes.first, first != dot else { return .malformed }
    var hasUppercase = false
    var previous: UInt8 = 0
    for byte in bytes {
      switch byte {
      case 0: return .malformed
      case dot where previous == dot: return .malformed
      case UInt8(ascii: ":"), UInt8(ascii: "["): return .ipAddress
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): hasUppercase = true
      default: break
      }
      previous = byte
    }
    let trailingDot = previous == dot
    var name = host
    if trailingDot { name = String(decoding: host.utf8.dropLast(), as: UTF8.self) }
    if hasUppercase { name = asciiLowercased(name) }
    if lastLabelIsNumber(name) { return .ipAddress }
    return .name(name, trailingDot: trailingDot)
  }

  /// Whether the last label is a decimal or `0x`-hex number, which the
  /// WHATWG host parser hands to its IPv4 parser ("ends in a number").
  static func lastLabelIsNumber(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { bytes in
      let start = bytes.lastIndex(of: dot).map { $0 + 1 } ?? 0
      return lastLabelIsNumber(UnsafeBufferPointer(rebasing: bytes[start...]))
    }
  }

  /// Whether `label` is a decimal or `0x`-hex number (see
  /// ``lastLabelIsNumber(_:)-(String)``).
  static func lastLabelIsNumber(_ label: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !label.isEmpty else { return false }
    if label.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
    guard label.count >= 2, label[0] == UInt8(ascii: "0"), label[1] == UInt8(ascii: "x") else {
      return false
    }
    return label.dropFirst(2).allSatisfy { isHexDigit($0) }
  }

  /// The registrable domain under the implicit `"*"` rule alone (the last
  /// two labels), used only when libpsl has no list data.
  static func starRuleRegistrableDomain(_ name: String) -> String? {
    let bytes = name.utf8
    guard let lastDot = bytes.lastIndex(of: dot) else { return nil }
    let head = bytes[..<lastDot]
    guard let secondDot = head.lastIndex(of: dot) else { return name }
    return String(decoding: bytes[bytes.index(after: secondDot)...], as: UTF8.self)
  }

  /// How ``asciiDomain(_:)`` must treat a name.
  enum ASCIIShape {
    case invalid, ready, needsLowercasing, needsIDNA
  }

  static func asciiShape(of domain: String) -> ASCIIShape {
    if let shape = domain.utf8.withContiguousStorageIfAvailable(asciiShape(bytes:)) {
      return shape
    }
    return Array(domain.utf8).withUnsafeBufferPointer(asciiShape(bytes:))
  }

  /// One pass over the bytes: any non-ASCII byte or a label starting `xn--`
  /// (any case) needs IDNA; otherwise only upper-case letters need work.
  static func asciiShape(bytes: UnsafeBufferPointer<UInt8>) -> ASCIIShape {
    guard !bytes.isEmpty else { return .invalid }
    var hasUppercase = false
    var labelStart = 0
    for index in bytes.indices {
      let byte = bytes[index]
      if byte >= 0x80 { return .needsIDNA }
      if byte == 0 { return .invalid }
      if byte == dot {
        labelStart = index + 1
      } else if index == labelStart + 3, byte == UInt8(ascii: "-"),
        bytes[index - 1] == UInt8(ascii: "-"), bytes[index - 2] | 0x20 == UInt8(ascii: "n"),
        bytes[index - 3] | 0x20 == UInt8(ascii: "x")
      {
        return .needsIDNA
      }
      if byte &- UInt8(ascii: "A") < 26 { hasUppercase = true }
    }
    return hasUppercase ? .needsLowercasing : .ready
  }

  /// UTS #46 deviation characters, plus U+1E9E (ẞ), which newer UTS #46
  /// tables map to ß.
  static func containsDeviationCharacter(_ domain: String) -> Bool {
    domain.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0x00DF, 0x03C2, 0x200C, 0x200D, 0x1E9E: return true
      default: return false
      }
    }
  }

  /// Calls `idn2_to_ascii_8z`, non-transitional first, transitional on
  /// `IDN2_DISALLOWED` when safe (see ``asciiDomain(_:)``).
  static func idnaToASCII(_ domain: String) -> String? {
    // C would stop at a NUL and convert only the part before it.
    guard !domain.utf8.contains(0) else { return nil }
    let nonTransitional = Int32(bitPattern: IDN2_NONTRANSITIONAL.rawValue)
    var result = callToASCII(domain, flags: nonTransitional)
    if case .failure(let code) = result, code == IDN2_DISALLOWED.rawValue,
      !containsDeviationCharacter(domain)
    {
      result = callToASCII(domain, flags: Int32(bitPattern: IDN2_TRANSITIONAL.rawValue))
    }
    guard case .success(let ascii) = result, !ascii.isEmpty else { return nil }
    return asciiLowercased(ascii)
  }

  enum IDNAResult {
    case success(String)
    case failure(Int32)
  }

  /// One `idn2_to_ascii_8z` call; the output buffer goes through
  /// ``takeCString(_:release:)``.
  static func callToASCII(_ domain: String, flags: Int32) -> IDNAResult {
    var output: UnsafeMutablePointer<CChar>?
    let code = domain.withCString { idn2_to_ascii_8z($0, &output, flags) }
    // On failure libidn2 leaves `output` untouched (nil), but release it
    // anyway if it was set.
    let text = takeCString(output) { idn2_free($0) }
    guard code == IDN2_OK.rawValue, let text else { return .failure(code) }
    return .success(text)
  }
}

// MARK: - Helpers

private let dot = UInt8(ascii: ".")

private func isHexDigit(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
    UInt8(ascii: "A")...UInt8(ascii: "F"):
    return true
  default: return false
  }
}

extension PublicSuffixDomainFacts {
  /// The one place where a C-allocated `char *` becomes a `String`: copies the
  /// bytes (as UTF-8, repairing nothing: invalid UTF-8 gives `nil`) and then
  /// hands the pointer to the allocating library's `release` function
  /// (`idn2_free`, `psl_free_string`).
  static func takeCString(
    _ pointer: UnsafeMutablePointer<CChar>?, release: (UnsafeMutablePointer<CChar>) -> Void
  ) -> String? {
    guard let pointer else { return nil }
    defer { release(pointer) }
    return String(validatingCString: pointer)
  }

  /// `string` with ASCII `A`–`Z` lower-cased and every other byte unchanged.
  static func asciiLowercased(_ string: String) -> String {
    String(
      unsafeUninitializedCapacity: string.utf8.count,
      initializingUTF8With: { buffer in
        var count = 0
        for byte in string.utf8 {
          buffer[count] =
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
          count += 1
        }
        return count
      })
  }

  package static var libraryVersion: String {
    guard let version = psl_get_version() else { return "libpsl" }
    return "libpsl \(String(cString: version))"
  }

  /// The built-in list's origin and date: `psl_builtin_filename` and
  /// `psl_builtin_file_time`.
  static var builtinDescription: String {
    var parts: [String] = []
    if let name = psl_builtin_filename().map({ String(cString: $0) }), !name.isEmpty {
      parts.append("from \(name)")
    }
    let time = psl_builtin_file_time()
    if time > 0 { parts.append("dated \(iso8601(Double(time)))") }
    return parts.isEmpty ? "undated" : parts.joined(separator: ", ")
  }

  /// The file `psl_latest(NULL)` loaded when it did not return the built-in
  /// context. libpsl does not say which; it takes the newest by mtime of
  /// `psl_dist_filename()` and `psl_builtin_filename()` that is newer than
  /// the built-in data, so we apply the same rule.
  static func inferredLatestPath() -> String? {
    let builtinTime = Double(psl_builtin_file_time())
    let candidates = [psl_dist_filename(), psl_builtin_filename()]
      .compactMap { $0.map { String(cString: $0) } }
      .filter { !$0.isEmpty }
      .compactMap { path in modificationTime(path).map { (path, $0) } }
      .filter { $0.1 > builtinTime }
    guard let newest = candidates.max(by: { $0.1 < $1.1 }) else { return nil }
    return "\(newest.0), dated \(iso8601(newest.1))"
  }

  static func describeFile(_ path: String) -> String {
    guard let time = modificationTime(path) else { return path }
    return "\(path), dated \(iso8601(time))"
  }

  static func modificationTime(_ path: String) -> Double? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let date = attributes[.modificationDate] as? Date
    else { return nil }
    return date.timeIntervalSince1970
  }

  static func iso8601(_ secondsSince1970: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: Date(timeIntervalSince1970: secondsSince1970))
  }
}
