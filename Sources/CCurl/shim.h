// Swift module shim for libcurl (the system libcurl, OpenSSL flavour).
//
// Most of the C API imports directly. The wrappers below exist only where
// Swift cannot call libcurl as declared:
//   - curl_easy_setopt(), curl_easy_getinfo(), curl_multi_setopt() and
//     curl_share_setopt() are variadic; Swift cannot call C variadic
//     functions, so each argument type we pass gets a fixed-signature wrapper.
//   - CURLHSTS_ENABLE, CURL_GLOBAL_ALL and CURLVERSION_NOW are macros with casts or operators
//     that Swift does not import.
//   - struct curl_hstsentry has a bit-field and a fixed char array, which are
//     awkward from Swift; the accessors below copy in and out of it on the C
//     side, checking the buffer sizes curl gives.
#ifndef WEBSITEDATA_CCURL_SHIM_H
#define WEBSITEDATA_CCURL_SHIM_H

#include <curl/curl.h>
#include <string.h>

// MARK: - Global

/// curl_global_init(CURL_GLOBAL_ALL): the macro combines flags with `|`.
static inline CURLcode websitedata_curl_global_init(void) {
  return curl_global_init(CURL_GLOBAL_ALL);
}

/// curl_version_info(CURLVERSION_NOW): the macro names an enum value
/// through another macro, which Swift does not import.
static inline curl_version_info_data *websitedata_curl_version_info(void) {
  return curl_version_info(CURLVERSION_NOW);
}

/// CURLHSTS_ENABLE, a macro with a cast (`(long)(1<<0)`).
static inline long websitedata_curlhsts_enable(void) { return CURLHSTS_ENABLE; }

// MARK: - curl_easy_setopt (variadic)

/// curl_easy_setopt() for CURLOPTTYPE_LONG options.
static inline CURLcode websitedata_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}

/// curl_easy_setopt() for CURLOPTTYPE_OFF_T options.
static inline CURLcode websitedata_curl_easy_setopt_off_t(
    CURL *easy, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(easy, option, value);
}

/// curl_easy_setopt() for pointer options: strings (curl copies them, except
/// CURLOPT_POSTFIELDS), `struct curl_slist *` lists (the caller keeps them
/// alive for the transfer), and the `void *` data given to callbacks.
static inline CURLcode websitedata_curl_easy_setopt_pointer(
    CURL *easy, CURLoption option, const void *value) {
  return curl_easy_setopt(easy, option, value);
}

/// curl_easy_setopt() for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode websitedata_curl_easy_setopt_write_function(
    CURL *easy, CURLoption option, curl_write_callback function) {
  return curl_easy_setopt(easy, option, function);
}

/// curl_easy_setopt() for CURLOPT_XFERINFOFUNCTION.
static inline CURLcode websitedata_curl_easy_setopt_xferinfo_function(
    CURL *easy, curl_xferinfo_callback function) {
  return curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, function);
}

/// curl_easy_setopt() for CURLOPT_HSTSREADFUNCTION.
static inline CURLcode websitedata_curl_easy_setopt_hsts_read_function(
    CURL *easy, curl_hstsread_callback function) {
  return curl_easy_setopt(easy, CURLOPT_HSTSREADFUNCTION, function);
}

/// curl_easy_setopt() for CURLOPT_HSTSWRITEFUNCTION.
static inline CURLcode websitedata_curl_easy_setopt_hsts_write_function(
    CURL *easy, curl_hstswrite_callback function) {
  return curl_easy_setopt(easy, CURLOPT_HSTSWRITEFUNCTION, function);
}

// MARK: - curl_easy_getinfo (variadic)

/// curl_easy_getinfo() for CURLINFO_LONG values.
static inline CURLcode websitedata_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
  return curl_easy_getinfo(easy, info, value);
}

/// curl_easy_getinfo() for CURLINFO_OFF_T values.
static inline CURLcode websitedata_curl_easy_getinfo_off_t(
    CURL *easy, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(easy, info, value);
}

/// curl_easy_getinfo() for CURLINFO_STRING values (owned by the handle).
static inline CURLcode websitedata_curl_easy_getinfo_string(
    CURL *easy, CURLINFO info, const char **value) {
  return curl_easy_getinfo(easy, info, value);
}

/// curl_easy_getinfo() for CURLINFO_PRIVATE (the CURLOPT_PRIVATE pointer).
static inline CURLcode websitedata_curl_easy_getinfo_private(CURL *easy, void **value) {
  return curl_easy_getinfo(easy, CURLINFO_PRIVATE, value);
}

// MARK: - curl_multi_setopt / curl_share_setopt (variadic)

/// curl_multi_setopt() for long options.
static inline CURLMcode websitedata_curl_multi_setopt_long(
    CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/// curl_share_setopt(share, CURLSHOPT_SHARE, data).
static inline CURLSHcode websitedata_curl_share_setopt_share(CURLSH *share, curl_lock_data data) {
  return curl_share_setopt(share, CURLSHOPT_SHARE, data);
}

// MARK: - struct curl_hstsentry

/// Fills the entry curl hands to a CURLOPT_HSTSREADFUNCTION: copies the
/// host name (`name_length` bytes, no NUL) into curl's buffer of
/// `e->namelen` bytes and the expiry ("YYYYMMDD HH:MM:SS", or NULL for
/// none) into `e->expire`. Returns CURLSTS_FAIL when either does not fit.
static inline CURLSTScode websitedata_curl_hstsentry_fill(
    struct curl_hstsentry *e, const char *name, size_t name_length, int include_subdomains,
    const char *expire) {
  if (name_length + 1 > e->namelen) return CURLSTS_FAIL;
  memcpy(e->name, name, name_length);
  e->name[name_length] = '\0';
  e->includeSubDomains = include_subdomains ? 1 : 0;
  if (expire) {
    size_t length = strlen(expire);
    if (length + 1 > sizeof(e->expire)) return CURLSTS_FAIL;
    memcpy(e->expire, expire, length + 1);
  } else {
    e->expire[0] = '\0';
  }
  return CURLSTS_OK;
}

/// The host name of an entry curl hands to a CURLOPT_HSTSWRITEFUNCTION.
static inline const char *websitedata_curl_hstsentry_name(const struct curl_hstsentry *e) {
  return e->name;
}

/// Whether an entry covers subdomains (a bit-field).
static inline int websitedata_curl_hstsentry_include_subdomains(const struct curl_hstsentry *e) {
  return e->includeSubDomains ? 1 : 0;
}

/// The expiry of an entry, "YYYYMMDD HH:MM:SS" (GMT), or "" for none.
static inline const char *websitedata_curl_hstsentry_expire(const struct curl_hstsentry *e) {
  return e->expire;
}

#endif
