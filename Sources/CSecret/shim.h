// Swift module shim for libsecret (the freedesktop Secret Service client):
// one lookup of the password Chromium keeps in the user's keyring.
//
// secret_password_lookup_sync takes its attributes as C varargs, which Swift
// cannot call, and its schemas are C structures best written as static C
// data; so the lookup is one static-inline function here, and Swift sees a
// plain call that returns the password (or NULL and an error message).
#ifndef WEBSITEDATA_CSECRET_SHIM_H
#define WEBSITEDATA_CSECRET_SHIM_H

#include <libsecret/secret.h>
#include <string.h>

// The schemas Chromium stores its "Safe Storage" password under
// (components/os_crypt/sync/key_storage_libsecret.cc): the current one, and
// the one before M55 that Chromium still migrates from. Both carry the
// browser's name in the "application" attribute ("chromium", "chrome",
// "brave"...). SECRET_SCHEMA_DONT_MATCH_NAME: items are matched by their
// attributes, as Chromium matches them.
static const SecretSchema websitedata_chromium_schema_v2 = {
    "chrome_libsecret_os_crypt_password_v2",
    SECRET_SCHEMA_DONT_MATCH_NAME,
    {{"application", SECRET_SCHEMA_ATTRIBUTE_STRING}, {NULL, 0}},
};
static const SecretSchema websitedata_chromium_schema_v1 = {
    "chrome_libsecret_os_crypt_password",
    SECRET_SCHEMA_NONE,
    {{"application", SECRET_SCHEMA_ATTRIBUTE_STRING}, {NULL, 0}},
};

// The password of `application` in the Secret Service (v2 schema, then v1),
// or NULL: then `*error_message` is a g_strdup'ed message when the service
// failed (no session bus, no service, a locked keyring that could not be
// unlocked), or NULL when it answered but holds no such password.
// A returned password is freed with websitedata_secret_free, which wipes it.
static inline char *websitedata_chromium_keyring_password(
    const char *application, char **error_message) {
  *error_message = NULL;
  const SecretSchema *schemas[] = {&websitedata_chromium_schema_v2,
                                   &websitedata_chromium_schema_v1};
  for (int index = 0; index < 2; index++) {
    GError *error = NULL;
    char *password = secret_password_lookup_sync(
        schemas[index], NULL, &error, "application", application, NULL);
    if (error != NULL) {
      *error_message = g_strdup(error->message);
      g_error_free(error);
      return NULL;
    }
    if (password != NULL) return password;
  }
  return NULL;
}

// Frees a password from websitedata_chromium_keyring_password (libsecret
// clears it first).
static inline void websitedata_secret_free(char *password) {
  secret_password_free(password);
}

// Frees an error message.
static inline void websitedata_message_free(char *message) { g_free(message); }

#endif
