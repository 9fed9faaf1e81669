import postgres from 'postgres'

/** A postgres.js client on Sightline's own database. Store functions take it (or a transaction) first. */
export type Sql = postgres.Sql<{}>
export type Tx = postgres.TransactionSql<{}>
/** Either the pool or an open transaction: stores accept both. */
export type Db = Sql | Tx

export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: 'sightline' },
    // bigint ids fit in a JS number for any realistic install; the wire format stays numeric.
    types: { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
  }) as Sql
}
