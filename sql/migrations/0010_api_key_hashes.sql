-- API keys (users' keys and queries' keys) are no longer kept in plain text: a key is found by its sha-256, as
-- session tokens are, and a copy sealed with SIGHTLINE_SECRET_KEY is kept only to show the key to those who may see
-- it (src/auth/api-keys.ts). SQL does not have the secret key, so the keys that exist now keep their plain copy in
-- legacy_plain_key only until the process that applied this migration seals them and empties the column, before it
-- serves anything (src/auth/seal-legacy-keys.ts).

-- users' keys (and, later, object keys)
alter table api_keys rename column api_key to legacy_plain_key;
alter table api_keys drop constraint api_keys_api_key_key;
alter table api_keys alter column legacy_plain_key drop not null;
alter table api_keys add column key_hash bytea, add column key_sealed text;
update api_keys set key_hash = sha256(convert_to(legacy_plain_key, 'UTF8'));
-- a revoked key is never shown again, so no copy of it is kept at all
update api_keys set legacy_plain_key = null where not active;
alter table api_keys alter column key_hash set not null;
alter table api_keys add constraint api_keys_key_hash_key unique (key_hash);

-- queries' keys (embeds and result links)
alter table queries rename column api_key to legacy_plain_key;
alter table queries drop constraint queries_api_key_key;
alter table queries alter column legacy_plain_key drop not null;
alter table queries add column api_key_hash bytea, add column api_key_sealed text;
update queries set api_key_hash = sha256(convert_to(legacy_plain_key, 'UTF8'));
alter table queries alter column api_key_hash set not null;
alter table queries add constraint queries_api_key_hash_key unique (api_key_hash);

-- the start-up sealing finds what is left to seal at once, and nothing at all once it is done
create index api_keys_legacy_plain on api_keys (id) where legacy_plain_key is not null;
create index queries_legacy_plain on queries (id) where legacy_plain_key is not null;
