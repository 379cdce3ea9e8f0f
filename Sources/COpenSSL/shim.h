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
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <string.h>

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

// Public keys of a JSON Web Key (RFC 7518 §6.2, §6.3) and JWS signature
// checks (RS256, ES256: RFC 7518 §3.3, §3.4). Built with OSSL_PARAM_BLD
// and EVP_PKEY_fromdata() in C, where the parameter names are literals.

/// An RSA public key from its modulus and exponent (big-endian), or NULL.
/// Free with EVP_PKEY_free().
static inline EVP_PKEY *websitedata_rsa_public_key(const unsigned char *n, size_t n_length,
                                                    const unsigned char *e, size_t e_length) {
  EVP_PKEY *key = NULL;
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *context = NULL;
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL);
  BIGNUM *exponent = BN_bin2bn(e, (int)e_length, NULL);
  if (builder && modulus && exponent &&
      OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) &&
      OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) &&
      (params = OSSL_PARAM_BLD_to_param(builder)) &&
      (context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) &&
      EVP_PKEY_fromdata_init(context) == 1) {
    if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
  }
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BN_free(modulus);
  BN_free(exponent);
  return key;
}

/// A P-256 public key from its affine coordinates (32 bytes each), or NULL
/// (also when the point is not on the curve). Free with EVP_PKEY_free().
static inline EVP_PKEY *websitedata_p256_public_key(const unsigned char *x, const unsigned char *y) {
  unsigned char point[65];
  point[0] = 0x04;
  memcpy(point + 1, x, 32);
  memcpy(point + 33, y, 32);
  EVP_PKEY *key = NULL;
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *context = NULL;
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  if (builder &&
      OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
      OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point) &&
      (params = OSSL_PARAM_BLD_to_param(builder)) &&
      (context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) &&
      EVP_PKEY_fromdata_init(context) == 1) {
    if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
  }
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  if (key) {
    // EVP_PKEY_fromdata() does not check the point: a public-key check does.
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int valid = check && EVP_PKEY_public_check(check) == 1;
    EVP_PKEY_CTX_free(check);
    if (!valid) {
      EVP_PKEY_free(key);
      key = NULL;
    }
  }
  return key;
}

/// Whether `signature` signs `data` under `key` with SHA-256 (PKCS #1 v1.5
/// for RSA, a DER ECDSA-Sig-Value for EC): 1 valid, 0 not.
static inline int websitedata_verify_sha256(EVP_PKEY *key, const unsigned char *data, size_t length,
                                            const unsigned char *signature, size_t signature_length) {
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  int valid = context && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1 &&
              EVP_DigestVerify(context, signature, signature_length, data, length) == 1;
  EVP_MD_CTX_free(context);
  return valid;
}

/// A JWS ECDSA signature (r || s, 32 bytes each, RFC 7518 §3.4) as a DER
/// ECDSA-Sig-Value in `out` (72 bytes suffice); its length, or 0.
static inline int websitedata_ecdsa_p256_der(const unsigned char *raw, unsigned char *out, int capacity) {
  ECDSA_SIG *signature = ECDSA_SIG_new();
  BIGNUM *r = BN_bin2bn(raw, 32, NULL);
  BIGNUM *s = BN_bin2bn(raw + 32, 32, NULL);
  int length = 0;
  if (signature && r && s && ECDSA_SIG_set0(signature, r, s) == 1) {
    r = s = NULL;  // owned by the signature now
    if (i2d_ECDSA_SIG(signature, NULL) <= capacity) {
      unsigned char *cursor = out;
      length = i2d_ECDSA_SIG(signature, &cursor);
    }
  }
  BN_free(r);
  BN_free(s);
  ECDSA_SIG_free(signature);
  return length < 0 ? 0 : length;
}

/// The key's size in bits (RSA: the modulus).
static inline int websitedata_key_bits(const EVP_PKEY *key) { return EVP_PKEY_get_bits(key); }

#endif
