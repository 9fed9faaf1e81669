/**
 * Keys of the PostgreSQL advisory locks Sightline takes, in one place so that no two uses share a key by accident.
 * A key is the same in every Sightline process on one database; never renumber one that has shipped, or processes
 * of two releases running side by side would stop excluding each other. They are passed as parameters: digit
 * separators (`727_1002`) inside SQL text are PostgreSQL 16 syntax, and Sightline runs on 15 too.
 *
 * Locks keyed by `hashtext('sightline_…')` (sign-in attempts, execution dispatch) live in SQL and are not listed.
 */
export const ADVISORY_LOCK = {
  /** One process applies migrations at a time (one key). */
  migrations: 7271001,
  /** First-run setup happens once (one key). */
  setup: 7271002,
  /** Schema refresh requests of one source take turns (with the data source id). */
  schemaRefresh: 7271003,
  /** Destination creates and renames in one organization take turns (with the organization id). */
  destinationNames: 7271016,
  /** Imports of files into one organization take turns (with the organization id). */
  contentFiles: 7271017,
} as const
