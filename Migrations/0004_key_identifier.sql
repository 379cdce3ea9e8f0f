-- 0004: every store names its key. Shipped migrations are immutable.
--
-- `key_id` in store_meta is a random identifier (32 hex digits, not a
-- secret) that stays with the store when it is moved or copied: a tool
-- finds the store's default key file by it (`sitedata` keeps
-- keys/store-<key_id>.key), not by the store's path. A new store may
-- replace it with one of its creator's choosing in the transaction that
-- writes its key record; key rotation and re-encryption keep it.
INSERT INTO store_meta (key, value)
SELECT 'key_id', CAST(lower(hex(randomblob(16))) AS BLOB)
WHERE NOT EXISTS (SELECT 1 FROM store_meta WHERE key = 'key_id');
