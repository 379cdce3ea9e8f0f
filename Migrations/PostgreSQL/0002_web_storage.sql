-- 0002 (PostgreSQL): web storage, as SQLite's migration 0006 makes it.
-- Shipped migrations are immutable.
CREATE TABLE web_storage (
  id BIGSERIAL PRIMARY KEY,
  -- HMAC-SHA-256 of the storage key and the item's key.
  item_hash BYTEA NOT NULL UNIQUE,
  -- HMAC-SHA-256 of the storage key, to clear an area.
  area_hash BYTEA NOT NULL,
  -- HMAC-SHA-256 of the origin's site and of the top-level site.
  site_hash BYTEA NOT NULL,
  top_level_site_hash BYTEA NOT NULL,
  -- version || nonce || AES-256-GCM(storage key, key, value) || tag
  sealed BYTEA NOT NULL,
  modified DOUBLE PRECISION NOT NULL
);
CREATE INDEX web_storage_by_area ON web_storage (area_hash);
CREATE INDEX web_storage_by_site ON web_storage (site_hash);
CREATE INDEX web_storage_by_top_level_site ON web_storage (top_level_site_hash);

INSERT INTO change_sequence (kind, seq, removal_floor) VALUES ('web_storage', 0, 0);
