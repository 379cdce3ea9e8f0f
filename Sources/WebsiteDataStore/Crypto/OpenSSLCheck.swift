internal import COpenSSL

/// The one place that turns an OpenSSL result into a ``WebsiteDataStoreError``.
///
/// OpenSSL reports failure through return values (`1` is success for the EVP,
/// RAND and KDF functions we call; `0` or a negative value is failure; a
/// constructor returns `NULL`) and records the reason on a *thread-local*
/// error queue. Every failure path here reads that queue in the same
/// synchronous call, on the same thread, with `ERR_get_error` and
/// `ERR_error_string_n`, and empties it with `ERR_clear_error`, so a stale
/// entry never leaks into a later, unrelated error (Swift tasks may move
/// between threads, but never in the middle of a synchronous function).
///
/// Messages name the failing OpenSSL function and quote OpenSSL's reason
/// string (library and reason names such as `"Provider routines::bad
/// decrypt"`); they never contain key material, passphrases or plaintext.
package enum OpenSSLCheck {
  /// Throws unless `result` is `1`, the success value of `EVP_*Init_ex2`,
  /// `EVP_*Update`, `EVP_*Final_ex`, `EVP_CIPHER_CTX_ctrl`, `EVP_MAC_*`,
  /// `EVP_KDF_derive`, `EVP_PBE_scrypt` and `RAND_bytes`.
  ///
  /// - Parameters:
  ///   - result: The OpenSSL return value.
  ///   - function: The OpenSSL function called, for the message.
  ///   - code: The error code to throw; ``WebsiteDataStoreError/Code/crypto``
  ///     unless the caller knows better.
  @inline(__always)
  package static func call(
    _ result: Int32, _ function: StaticString,
    code: WebsiteDataStoreError.Code = .crypto
  ) throws(WebsiteDataStoreError) {
    if result != 1 {
      throw failure(function, code: code)
    }
  }

  /// Returns `pointer`, or throws if an OpenSSL constructor or fetch
  /// (`EVP_CIPHER_CTX_new`, `EVP_CIPHER_fetch`, `EVP_MAC_CTX_new`, …)
  /// returned `NULL`.
  @inline(__always)
  package static func pointer(
    _ pointer: OpaquePointer?, _ function: StaticString
  ) throws(WebsiteDataStoreError) -> OpaquePointer {
    guard let pointer else { throw failure(function, code: .crypto) }
    return pointer
  }

  /// Builds the error for a failed `function`, consuming OpenSSL's
  /// thread-local error queue.
  ///
  /// The first (oldest) queued error is the root cause; it is quoted. The
  /// queue is then cleared.
  package static func failure(
    _ function: StaticString, code: WebsiteDataStoreError.Code
  ) -> WebsiteDataStoreError {
    let first = ERR_get_error()
    ERR_clear_error()
    var message = "OpenSSL \(function) failed"
    if first != 0 {
      // ERR_error_string_n always NUL-terminates within `len` bytes.
      var buffer = [CChar](repeating: 0, count: 256)
      buffer.withUnsafeMutableBufferPointer { buffer in
        ERR_error_string_n(first, buffer.baseAddress, buffer.count)
      }
      let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      message += ": " + String(decoding: bytes, as: UTF8.self)
    }
    return WebsiteDataStoreError(code, message)
  }

  /// Empties OpenSSL's thread-local error queue after a failure the caller
  /// handles itself (a GCM tag mismatch in `EVP_DecryptFinal_ex`).
  @inline(__always)
  package static func clearErrors() {
    ERR_clear_error()
  }
}
