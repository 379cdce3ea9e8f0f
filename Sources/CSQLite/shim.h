// Swift module shim for SQLite 3 (the system libsqlite3).
//
// Most of the C API imports directly. The wrappers below exist only where
// Swift cannot call SQLite as declared:
//   - SQLITE_TRANSIENT is a macro that casts -1 to a function pointer
//     (sqlite3_destructor_type); Swift cannot import it, so the bind wrappers
//     pass it on the C side (SQLite then copies the bytes before returning).
//   - sqlite3_db_config() is variadic; Swift cannot call C variadic functions,
//     so each option we set gets a fixed-signature wrapper.
#ifndef WEBSITEDATA_CSQLITE_SHIM_H
#define WEBSITEDATA_CSQLITE_SHIM_H

#include <sqlite3.h>

/// sqlite3_bind_blob64() with SQLITE_TRANSIENT (a macro Swift cannot import):
/// SQLite copies the bytes, so the Swift buffer may go away on return.
/// A NULL `bytes` binds SQL NULL, so callers bind empty blobs with
/// sqlite3_bind_zeroblob() instead.
static inline int websitedata_sqlite3_bind_blob_transient(
    sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 count) {
  return sqlite3_bind_blob64(statement, index, bytes, count, SQLITE_TRANSIENT);
}

/// sqlite3_bind_text64() (UTF-8) with SQLITE_TRANSIENT (a macro Swift cannot
/// import): SQLite copies the bytes, so the Swift buffer may go away on return.
/// `count` is in bytes; the text need not be NUL-terminated.
static inline int websitedata_sqlite3_bind_text_transient(
    sqlite3_stmt *statement, int index, const char *text, sqlite3_uint64 count) {
  return sqlite3_bind_text64(statement, index, text, count, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/// sqlite3_db_config(db, option, value, (int *)0) for the on/off options
/// (SQLITE_DBCONFIG_DEFENSIVE, SQLITE_DBCONFIG_TRUSTED_SCHEMA, ...):
/// sqlite3_db_config() is variadic, which Swift cannot call.
static inline int websitedata_sqlite3_db_config_flag(sqlite3 *db, int option, int value) {
  return sqlite3_db_config(db, option, value, (int *)0);
}

#endif
