// Swift module shim for OpenSSL 3 (libcrypto): AES-256-GCM through EVP,
// HMAC through EVP_MAC, HKDF through EVP_KDF, scrypt through EVP_PBE_scrypt,
// RAND_bytes, OPENSSL_cleanse and CRYPTO_memcmp. Only libcrypto is linked.
//
// Everything we call is a plain, non-variadic function that Swift imports
// directly, and the EVP_CTRL_AEAD_* controls are integer-literal macros that
// Swift imports too. We never receive memory that OpenSSL allocated for us to
// free, so there is no OPENSSL_free wrapper.
//
// The only wrappers are the OSSL_PARAM names below: see there for why.
#ifndef WEBSITEDATA_COPENSSL_SHIM_H
#define WEBSITEDATA_COPENSSL_SHIM_H

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

// OSSL_PARAM_construct_*() store the parameter-name pointer (and for
// utf8_string the value pointer) without copying it. The names are string
// macros, which Swift imports as Swift `String`s whose C pointers live only
// for the duration of one call, so an OSSL_PARAM built from them in Swift
// would dangle. These return the C literals themselves, which have static
// storage duration.

/// OSSL_KDF_PARAM_DIGEST / OSSL_MAC_PARAM_DIGEST ("digest").
static inline const char *websitedata_param_digest(void) {
  return OSSL_ALG_PARAM_DIGEST;
}
/// OSSL_KDF_PARAM_KEY ("key").
static inline const char *websitedata_param_key(void) {
  return OSSL_KDF_PARAM_KEY;
}
/// OSSL_KDF_PARAM_SALT ("salt").
static inline const char *websitedata_param_salt(void) {
  return OSSL_KDF_PARAM_SALT;
}
/// OSSL_KDF_PARAM_INFO ("info").
static inline const char *websitedata_param_info(void) {
  return OSSL_KDF_PARAM_INFO;
}
/// OSSL_DIGEST_NAME_SHA2_256 ("SHA2-256"), the value of a "digest" parameter.
/// Returned as `char *` because OSSL_PARAM_construct_utf8_string() takes a
/// non-const buffer; OpenSSL only reads it for a parameter that is set.
static inline char *websitedata_digest_sha256(void) {
  return (char *)OSSL_DIGEST_NAME_SHA2_256;
}

#endif
