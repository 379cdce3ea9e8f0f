-- 0001: the encrypted cookie store. Shipped migrations are immutable.
--
-- Nothing here holds a person's or a site's data in the clear: the fields
-- that identify them (name, value, domain, path, partition key) are sealed
-- together with AES-256-GCM in `sealed`, whose associated data binds it to
-- `identity_hash`; lookups use a keyed hash (HMAC-SHA-256), never plaintext.
--
-- Rows are looked up only by identity: the store holds every cookie in
-- memory, so removal by site (or by any filter) deletes the matching
-- identities. There is no per-site column or index: neither would be used,
-- and a site hash would tell anyone holding the file which rows belong to
-- the same site.

-- Store-wide settings: the key envelope (KDF, its parameters, the wrapped
-- data key) and the store format.
CREATE TABLE store_meta (
  key TEXT PRIMARY KEY NOT NULL,
  value BLOB NOT NULL
) STRICT;

CREATE TABLE cookies (
  id INTEGER PRIMARY KEY,
  -- HMAC-SHA-256 of the identity (name, domain, host-only, path, partition),
  -- truncated to its first 16 bytes (128 bits; see KeyedHash).
  identity_hash BLOB NOT NULL UNIQUE,
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
