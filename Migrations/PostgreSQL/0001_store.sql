-- 0001 (PostgreSQL): a whole store as SQLite's migrations 0001-0005 leave
-- it, in one step. Shipped migrations are immutable.
--
-- Every identifying byte is sealed by the clients (AES-256-GCM under the
-- store's data key, which the server never sees): the server holds keyed
-- hashes for lookups, sealed blobs, and the columns that must be compared
-- in SQL (flags, times), which the sealed blob's associated data
-- authenticates, so that editing any of them makes the row damaged.

-- The store's own metadata: the wrapped data key, its identifier, the
-- sealed settings.
CREATE TABLE store_meta (
  key TEXT PRIMARY KEY,
  value BYTEA NOT NULL
);

CREATE TABLE cookies (
  id BIGSERIAL PRIMARY KEY,
  -- HMAC-SHA-256 of the identity (name, domain, host-only, path,
  -- partition), its first 16 bytes.
  identity_hash BYTEA NOT NULL UNIQUE,
  -- version || nonce || AES-256-GCM(the whole cookie) || tag
  sealed BYTEA NOT NULL,
  host_only SMALLINT NOT NULL,
  secure SMALLINT NOT NULL,
  http_only SMALLINT NOT NULL,
  -- SameSite raw value: 0 unspecified, 1 none, 2 lax, 3 strict.
  same_site SMALLINT NOT NULL,
  -- Seconds since 1970 (a Date round-trips exactly); NULL = session.
  expires DOUBLE PRECISION,
  created DOUBLE PRECISION NOT NULL,
  last_access DOUBLE PRECISION NOT NULL,
  last_update DOUBLE PRECISION NOT NULL,
  -- CookieSourceScheme raw value: 0 unset, 1 non-secure, 2 secure.
  source_scheme SMALLINT NOT NULL,
  source_port INTEGER,
  -- CookieSource raw value: 0 http, 1 script, 2 api.
  source SMALLINT NOT NULL,
  -- The change sequence number of the transaction that last wrote it.
  change_seq BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX cookies_by_change ON cookies (change_seq);

CREATE TABLE hsts (
  id BIGSERIAL PRIMARY KEY,
  -- HMAC-SHA-256 of the host name, and of its registrable domain.
  host_hash BYTEA NOT NULL UNIQUE,
  site_hash BYTEA NOT NULL,
  -- version || nonce || AES-256-GCM(host) || tag
  sealed BYTEA NOT NULL,
  include_subdomains SMALLINT NOT NULL,
  expires DOUBLE PRECISION NOT NULL,
  created DOUBLE PRECISION NOT NULL,
  change_seq BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX hsts_by_site ON hsts (site_hash);
CREATE INDEX hsts_by_change ON hsts (change_seq);

-- Each kind's change sequence: a transaction that changes records takes
-- the next number (under the row's lock, so numbers are given in commit
-- order of the writers of a kind) and writes it into what it upserts and
-- removes; a client that has seen up to N reads what is numbered above N.
CREATE TABLE change_sequence (
  kind TEXT PRIMARY KEY,
  seq BIGINT NOT NULL,
  removal_floor BIGINT NOT NULL
);
INSERT INTO change_sequence (kind, seq, removal_floor) VALUES ('cookies', 0, 0), ('hsts', 0, 0);

CREATE TABLE cookie_removals (
  identity_hash BYTEA PRIMARY KEY,
  change_seq BIGINT NOT NULL,
  -- CookieChange.Cause raw value: 1 overwritten, 2 expired, 3 evicted, 4 deleted.
  cause SMALLINT NOT NULL,
  -- version || nonce || AES-256-GCM(name, domain, host-only, path, partition key) || tag
  sealed BYTEA NOT NULL
);
CREATE INDEX cookie_removals_by_change ON cookie_removals (change_seq);

CREATE TABLE hsts_removals (
  host_hash BYTEA PRIMARY KEY,
  change_seq BIGINT NOT NULL
);
CREATE INDEX hsts_removals_by_change ON hsts_removals (change_seq);
