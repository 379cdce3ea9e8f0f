// glibc's stub resolver (libresolv, part of libc6-dev): DNS queries sent to
// a name server the caller chooses, for the loader's `nameServer` setting
// (like curl's --dns-servers). resolv.h names its functions through macros
// (`res_nquery` is `__res_nquery`), which Swift does not import: these
// inline functions call them.
#ifndef WEBSITEDATA_CRESOLV_SHIM_H
#define WEBSITEDATA_CRESOLV_SHIM_H

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <resolv.h>
#include <string.h>

/// res_nquery(3) for `name` (no search list, no default domain) of `type`
/// in class IN, sent to the IPv4 name server `server`:`port` alone, each
/// try waiting `timeout` seconds, `attempts` tries. Returns the answer's
/// length in `answer`, or -1 (no such name, no answer, a malformed server
/// address).
static inline int websitedata_res_query(
    const char *server, unsigned short port, const char *name, int type,
    unsigned char *answer, int capacity, int timeout, int attempts) {
  struct __res_state state;
  memset(&state, 0, sizeof state);
  if (res_ninit(&state) != 0) return -1;
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  if (inet_pton(AF_INET, server, &address.sin_addr) != 1) {
    res_nclose(&state);
    return -1;
  }
  state.nsaddr_list[0] = address;
  state.nscount = 1;
  state.retrans = timeout;
  state.retry = attempts;
  state.options &= ~(RES_DNSRCH | RES_DEFNAMES);
  int length = res_nquery(&state, name, ns_c_in, type, answer, capacity);
  res_nclose(&state);
  return length;
}

/// dn_expand(3): the domain name at `source` in the message
/// `message`..<`end`, uncompressed into `name` as text. Returns the bytes
/// the compressed name took, or -1.
static inline int websitedata_dn_expand(
    const unsigned char *message, const unsigned char *end, const unsigned char *source,
    char *name, int capacity) {
  return dn_expand(message, end, source, name, capacity);
}

#endif
