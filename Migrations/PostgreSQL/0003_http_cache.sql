-- 0003 (PostgreSQL): the HTTP cache, as SQLite's migration 0007 makes it.
-- Shipped migrations are immutable.
CREATE TABLE http_cache (
  id BIGSERIAL PRIMARY KEY,
  -- HMAC-SHA-256 of the partition key and the URL.
  entry_hash BYTEA NOT NULL UNIQUE,
  -- HMAC-SHA-256 of the URL's site and of the partition's two sites.
  site_hash BYTEA NOT NULL,
  top_level_site_hash BYTEA NOT NULL,
  frame_site_hash BYTEA NOT NULL,
  -- version || nonce || AES-256-GCM(the whole entry) || tag
  sealed BYTEA NOT NULL,
  modified DOUBLE PRECISION NOT NULL
);
CREATE INDEX http_cache_by_site ON http_cache (site_hash);
CREATE INDEX http_cache_by_top_level_site ON http_cache (top_level_site_hash);
CREATE INDEX http_cache_by_frame_site ON http_cache (frame_site_hash);

INSERT INTO change_sequence (kind, seq, removal_floor) VALUES ('http_cache', 0, 0);
