// libpq, PostgreSQL's client library (libpq-dev): the PostgreSQL backend's
// connections. Swift imports libpq-fe.h as it is; nothing to wrap.
#ifndef WEBSITEDATA_CPOSTGRES_SHIM_H
#define WEBSITEDATA_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
