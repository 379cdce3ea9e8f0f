-- 0006: web storage (HTML §12.2, localStorage-style areas), kept like
-- cookies: the storage key, the item's key and its value are sealed;
-- lookups and removals use keyed hashes. Shipped migrations are immutable.
CREATE TABLE web_storage (
  id INTEGER PRIMARY KEY,
  -- HMAC-SHA-256 of the storage key and the item's key.
  item_hash BLOB NOT NULL UNIQUE,
  -- HMAC-SHA-256 of the storage key (origin, top-level site, ancestor bit),
  -- to clear an area.
  area_hash BLOB NOT NULL,
  -- HMAC-SHA-256 of the origin's site and of the top-level site, for
  -- removal by site (an area partitioned under a removed site goes too).
  site_hash BLOB NOT NULL,
  top_level_site_hash BLOB NOT NULL,
  -- version || nonce || AES-256-GCM(storage key, key, value) || tag
  sealed BLOB NOT NULL,
  modified REAL NOT NULL
) STRICT;

CREATE INDEX web_storage_by_area ON web_storage (area_hash);
CREATE INDEX web_storage_by_site ON web_storage (site_hash);
CREATE INDEX web_storage_by_top_level_site ON web_storage (top_level_site_hash);

INSERT INTO change_sequence (kind, seq, removal_floor) VALUES ('web_storage', 0, 0);
