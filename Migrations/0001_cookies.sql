-- 0001: the encrypted cookie store. Shipped migrations are immutable.
--
-- Nothing here holds a person's or a site's data in the clear: the fields
-- that identify them (name, value, domain, path, partition key) are sealed
-- together with AES-256-GCM in `sealed`, whose associated data binds it to
-- `identity_hash`; lookups use keyed hashes (HMAC-SHA-256), never plaintext.

-- Store-wide settings: the key envelope (KDF, its parameters, the wrapped
-- data key) and the store format.
CREATE TABLE store_meta (
  key TEXT PRIMARY KEY NOT NULL,
  value BLOB NOT NULL
) STRICT;

CREATE TABLE cookies (
  id INTEGER PRIMARY KEY,
  -- HMAC-SHA-256 of the identity (name, domain, host-only, path, partition).
  identity_hash BLOB NOT NULL UNIQUE,
  -- HMAC-SHA-256 of the registrable domain, for removal by site.
  site_hash BLOB NOT NULL,
  -- version || nonce || AES-256-GCM(name, value, domain, path, partition key) || tag
  sealed BLOB NOT NULL,
  host_only INTEGER NOT NULL,
  secure INTEGER NOT NULL,
  http_only INTEGER NOT NULL,
  -- SameSite raw value: 0 unspecified, 1 none, 2 lax, 3 strict.
  same_site INTEGER NOT NULL,
  -- Seconds since 1970 (REAL: a Date round-trips exactly); NULL = session.
  expires REAL,
  created REAL NOT NULL,
  last_access REAL NOT NULL,
  last_update REAL NOT NULL,
  -- CookieSourceScheme raw value: 0 unset, 1 non-secure, 2 secure.
  source_scheme INTEGER NOT NULL,
  source_port INTEGER,
  -- CookieSource raw value: 0 http, 1 script, 2 api.
  source INTEGER NOT NULL
) STRICT;

CREATE INDEX cookies_by_site ON cookies (site_hash);
