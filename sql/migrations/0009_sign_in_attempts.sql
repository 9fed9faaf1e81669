-- Failed (and in-progress) password sign-ins, shared by every web process so that limits hold however many run.
-- A row is written before the password is checked and deleted when it turns out right; rows older than the
-- throttle's window are pruned as new ones come in. `account` is the SHA-256 of the email as typed (lower case),
-- known or not: the table never says which emails have accounts, nor keeps a password typed into the email box.
create table sign_in_attempts (
  id bigint generated always as identity primary key,
  account bytea not null,
  address text not null,
  attempted_at timestamptz not null
);

create index sign_in_attempts_account on sign_in_attempts (account, attempted_at);
create index sign_in_attempts_address on sign_in_attempts (address, attempted_at);
create index sign_in_attempts_attempted_at on sign_in_attempts (attempted_at);
