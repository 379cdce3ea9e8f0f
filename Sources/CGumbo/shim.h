// Swift module shim for Gumbo (Google's pure-C HTML5 parser, Debian's
// libgumbo-dev).
//
// Gumbo's API is plain C and imports directly. The two wrappers below exist
// because the parser takes its options through a pointer to the extern const
// struct kGumboDefaultOptions, which Swift can only reach by copying it: they
// copy it on the C side, turn off error recording (a loader never reports
// parse errors, and recording them costs memory on hostile input), and pass
// the same options to gumbo_destroy_output(), as Gumbo requires.
#ifndef WEBSITEDATA_CGUMBO_SHIM_H
#define WEBSITEDATA_CGUMBO_SHIM_H

#include <gumbo.h>

/// gumbo_parse_with_options() on `length` bytes of UTF-8 (not necessarily
/// NUL-terminated) with the default options and no error recording. The
/// result is freed with websitedata_gumbo_destroy().
static inline GumboOutput *websitedata_gumbo_parse(const char *buffer, size_t length) {
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  return gumbo_parse_with_options(&options, buffer, length);
}

/// gumbo_destroy_output() with the options websitedata_gumbo_parse() used.
static inline void websitedata_gumbo_destroy(GumboOutput *output) {
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  gumbo_destroy_output(&options, output);
}

#endif
