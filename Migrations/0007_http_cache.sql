-- 0007: the HTTP cache (RFC 9111) of a persistent store, kept like cookies:
-- every cached response is sealed whole (URL, partition, header fields,
-- body); lookups and removals use keyed hashes. Shipped migrations are
-- immutable.
CREATE TABLE http_cache (
  id INTEGER PRIMARY KEY,
  -- HMAC-SHA-256 of the partition key and the URL.
  entry_hash BLOB NOT NULL UNIQUE,
  -- HMAC-SHA-256 of the URL's site, of the partition's top-level site and
  -- of its frame site, for removal by site.
  site_hash BLOB NOT NULL,
  top_level_site_hash BLOB NOT NULL,
  frame_site_hash BLOB NOT NULL,
  -- version || nonce || AES-256-GCM(the whole entry) || tag
  sealed BLOB NOT NULL,
  -- When the response was received (seconds since 1970).
  modified REAL NOT NULL
) STRICT;

CREATE INDEX http_cache_by_site ON http_cache (site_hash);
CREATE INDEX http_cache_by_top_level_site ON http_cache (top_level_site_hash);
CREATE INDEX http_cache_by_frame_site ON http_cache (frame_site_hash);

INSERT INTO change_sequence (kind, seq, removal_floor) VALUES ('http_cache', 0, 0);
