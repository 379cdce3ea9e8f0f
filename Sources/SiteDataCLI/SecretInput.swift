import WebsiteData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads passphrases and other secrets: one line of stdin each, or an
/// environment variable.
///
/// Stdin is read one byte at a time, so that a second passphrase (the new one
/// of `key rotate`) is still there for the next call. On a terminal a prompt
/// goes to stderr and echo is turned off while typing. The line end (LF,
/// CRLF) is not part of the passphrase. The bytes go straight into
/// ``SecretBytes``; the buffers on the way are wiped by it.
enum SecretInput {
  /// The next line of stdin as a passphrase.
  ///
  /// - Parameter prompt: shown on stderr when stdin is a terminal.
  /// - Throws: a failure when stdin ends before any byte or the line is empty.
  static func passphraseFromStdin(prompt: String) throws(CLIError) -> SecretBytes {
    try lineFromStdin(prompt: prompt, naming: "passphrase")
  }

  /// The next line of stdin as a secret (a passphrase, a client secret, a
  /// password a login page asks for), or as text the user may see typed
  /// (`echo`: a user name).
  ///
  /// - Parameters:
  ///   - prompt: shown on stderr when stdin is a terminal.
  ///   - what: what the line is, for errors ("the passphrase read from stdin").
  /// - Throws: a failure when stdin ends before any byte or the line is empty.
  static func lineFromStdin(prompt: String, naming what: String, echo: Bool = false)
    throws(CLIError) -> SecretBytes
  {
    let isTerminal = isatty(STDIN_FILENO) == 1
    var saved = termios()
    var echoOff = false
    if isTerminal {
      // Echo off before the prompt shows (as getpass(3)): an answer typed
      // as soon as the prompt appears is neither echoed nor discarded by
      // the change (TCSAFLUSH drops only what came before the prompt).
      if !echo && tcgetattr(STDIN_FILENO, &saved) == 0 {
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        echoOff = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0
      }
      Console.error(prompt)
    }
    defer {
      if echoOff {
        // TCSADRAIN: what is typed ahead for the next prompt is kept.
        _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &saved)
        Console.error("\n")
      }
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    var sawAny = false
    while true {
      let count = read(STDIN_FILENO, &byte, 1)
      if count < 0 {
        if errno == EINTR { continue }
        let reason = String(cString: strerror(errno))
        _ = SecretBytes(consuming: &bytes)  // wipes what was read
        throw .failure("cannot read the \(what) from stdin: \(reason)")
      }
      if count == 0 { break }
      sawAny = true
      if byte == UInt8(ascii: "\n") { break }
      bytes.append(byte)
    }
    byte = 0
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    guard sawAny else { throw .failure("stdin ended before the \(what) was read") }
    return try nonEmpty(&bytes, origin: "the \(what) read from stdin")
  }

  /// The passphrase in the environment variable `name`, if set.
  ///
  /// - Throws: a failure when it is set but empty.
  static func passphrase(fromEnvironment name: String, _ environment: [String: String])
    throws(CLIError) -> SecretBytes?
  {
    guard let value = environment[name] else { return nil }
    var bytes = Array(value.utf8)
    return try nonEmpty(&bytes, origin: name)
  }

  private static func nonEmpty(_ bytes: inout [UInt8], origin: String) throws(CLIError)
    -> SecretBytes
  {
    let secret = SecretBytes(consuming: &bytes)
    guard secret.count > 0 else { throw .failure("\(origin) is empty") }
    return secret
  }
}

extension SecretInput {
  /// The environment variable holding a new passphrase (`key rotate`,
  /// `key set-passphrase`).
  static let newPassphraseVariable = "SITEDATA_NEW_PASSPHRASE"

  /// A new passphrase: `SITEDATA_NEW_PASSPHRASE`, else `fallbackVariable`
  /// when given and set, else the next line of stdin (typed twice on a
  /// terminal).
  static func newPassphrase(_ environment: [String: String], fallbackVariable: String? = nil)
    throws(CLIError) -> SecretBytes
  {
    for name in [newPassphraseVariable] + (fallbackVariable.map { [$0] } ?? []) {
      if let secret = try passphrase(fromEnvironment: name, environment) { return secret }
    }
    let secret = try passphraseFromStdin(prompt: "New passphrase: ")
    if isatty(STDIN_FILENO) == 1 {
      let again = try passphraseFromStdin(prompt: "New passphrase again: ")
      guard again == secret else { throw .failure("the two passphrases differ") }
    }
    return secret
  }
}
