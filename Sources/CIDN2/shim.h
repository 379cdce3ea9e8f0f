// Swift module shim for libidn2 (IDNA2008 / Unicode TR46).
//
// No wrappers are needed: idn2_to_ascii_8z() and idn2_free() are plain,
// non-variadic functions and the idn2_flags / idn2_rc enumerators import
// as constants. Strings that libidn2 allocates must be released with
// idn2_free() (not free(), which may differ on some platforms), which Swift
// calls directly.
#ifndef WEBSITEDATA_CIDN2_SHIM_H
#define WEBSITEDATA_CIDN2_SHIM_H

#include <idn2.h>

#endif
