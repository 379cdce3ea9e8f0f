// Swift module shim for libpsl (the Public Suffix List library).
//
// No wrappers are needed: every libpsl entry point we use is a plain,
// non-variadic function, and the PSL_TYPE_* flags are integer-constant
// macros that Swift imports directly. Results from psl_registrable_domain()
// point into the caller's buffer and are never freed; contexts from
// psl_latest()/psl_load_file() are released with psl_free(), and the
// built-in context from psl_builtin() is never freed.
#ifndef WEBSITEDATA_CPSL_SHIM_H
#define WEBSITEDATA_CPSL_SHIM_H

#include <libpsl.h>

#endif
