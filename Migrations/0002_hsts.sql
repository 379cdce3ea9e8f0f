-- 0002: HTTP Strict Transport Security entries (RFC 6797), kept like cookies:
-- the host is sealed, lookups use its keyed hash.
CREATE TABLE hsts (
  id INTEGER PRIMARY KEY,
  -- HMAC-SHA-256 of the host name.
  host_hash BLOB NOT NULL UNIQUE,
  -- HMAC-SHA-256 of the registrable domain, for removal by site.
  site_hash BLOB NOT NULL,
  -- version || nonce || AES-256-GCM(host) || tag
  sealed BLOB NOT NULL,
  include_subdomains INTEGER NOT NULL,
  expires REAL NOT NULL,
  created REAL NOT NULL
) STRICT;

CREATE INDEX hsts_by_site ON hsts (site_hash);
