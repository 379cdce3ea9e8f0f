-- 0005: a change sequence, so that a store applies only what others changed.
-- Shipped migrations are immutable.
--
-- Every transaction that changes cookies (or HSTS entries) takes the next
-- number of its kind in `change_sequence` and writes it into the rows it
-- upserts (`change_seq`) and the removals it records. A store that has seen
-- up to number N reads only the rows and removals numbered above N: it
-- never decrypts the whole store again to learn what another process did.
--
-- A removal keeps only what a reader needs to find the cookie it holds: the
-- identity, sealed (AES-256-GCM under the store's key, bound to the
-- identity hash and the cause), never the value. Removals are dropped, and
-- `removal_floor` raised to the transaction that dropped them, when data is
-- removed on request (nothing of a deleted cookie stays) or when many have
-- accumulated; a reader whose position is below the floor reloads the store.
-- Refreshed access times take no number: they are advisory, and a reader
-- does not need them.
CREATE TABLE change_sequence (
  kind TEXT PRIMARY KEY NOT NULL,
  seq INTEGER NOT NULL,
  removal_floor INTEGER NOT NULL
) STRICT;

INSERT INTO change_sequence (kind, seq, removal_floor) VALUES ('cookies', 0, 0), ('hsts', 0, 0);

ALTER TABLE cookies ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;

CREATE INDEX cookies_by_change ON cookies (change_seq);

CREATE TABLE cookie_removals (
  identity_hash BLOB PRIMARY KEY NOT NULL,
  change_seq INTEGER NOT NULL,
  -- CookieChange.Cause raw value: 1 overwritten, 2 expired, 3 evicted, 4 deleted.
  cause INTEGER NOT NULL,
  -- version || nonce || AES-256-GCM(name, domain, host-only, path, partition key) || tag
  sealed BLOB NOT NULL
) STRICT;

CREATE INDEX cookie_removals_by_change ON cookie_removals (change_seq);
