-- Public dashboards (spec 2 §7 share; reference §7.1): a dashboard's share token is an api_keys row with
-- object_type 'dashboards' (the table already had those columns, and keys are kept as their sha-256 plus a sealed
-- copy since 0010). Turning sharing off sets `active` false and forgets the sealed copy; turning it on again makes
-- a new token, so an address once revoked never works again.

-- one live token per dashboard: a second "share" answers the same token (and racing ones meet here)
create unique index api_keys_one_per_object on api_keys (object_type, object_id) where object_type is not null and active;

-- the organization setting `disable_public_urls` already exists in organizations.settings (src/settings/defaults.ts)
