import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Sql, type Tx } from '../../src/db/index.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'

/**
 * A connection of Sightline's pool that dies while a transaction holds it (the database restarted, the backend
 * terminated) is reopened for the next caller's query. That query must run in the new session, untouched by what the
 * dead one left (scripts/patch-postgres.ts): before, it failed with the dead session's error, and the transaction's
 * ROLLBACK was sent into the new session.
 */
let db: TestDatabase
let pool: Sql
let admin: Sql
beforeAll(async () => {
  db = await freshDatabase()
  admin = connect(db.url, { max: 1 })
})
afterAll(async () => {
  await pool?.end({ timeout: 1 })
  await admin?.end({ timeout: 1 })
  await db?.drop()
})

/** A transaction on the pool's only connection, its backend terminated while it waits in a statement. */
async function transactionCutOff(pool: Sql, after: (tx: Tx) => Promise<unknown>) {
  let pid = 0
  let inside!: () => void
  const started = new Promise<void>((resolve) => (inside = resolve))
  const transaction = pool.begin(async (tx) => {
    ;[{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`
    inside()
    await tx`select pg_sleep(30)`.catch(() => {})
    return after(tx)
  })
  transaction.catch(() => {})
  await started
  return { transaction, terminate: () => admin`select pg_terminate_backend(${pid})` }
}

describe("a pool connection that dies under a transaction", () => {
  it('fails the transaction, then runs the queries that waited for the connection in its new session', async () => {
    pool = connect(db.url, { max: 1 })
    for (let round = 0; round < 3; round++) {
      const { transaction, terminate } = await transactionCutOff(pool, async () => 'never')
      const waiting = [pool<{ n: number }[]>`select 1 as n`, pool<{ n: number }[]>`select 2 as n`]
      await terminate()
      await expect(transaction).rejects.toMatchObject({ code: expect.stringMatching(/^(CONNECTION_CLOSED|57P01)$/) })
      expect((await Promise.all(waiting)).map((rows) => rows[0].n)).toEqual([1, 2])
    }
  })

  it('refuses what the transaction sends after its connection closed, instead of sending it into the new session', async () => {
    const sent: string[] = []
    const { transaction, terminate } = await transactionCutOff(pool, async (tx) => {
      // the statement after the one that was cut off: it must fail, not run on the reopened connection
      await new Promise((resolve) => setTimeout(resolve, 50))
      const [row] = await tx<{ at: string }[]>`select 'inside the dead transaction' as at`
      sent.push(row.at)
    })
    const waiting = pool<{ n: number }[]>`select 3 as n`
    await terminate()
    await expect(transaction).rejects.toBeTruthy()
    expect((await waiting)[0].n).toBe(3)
    expect(sent).toEqual([])
    expect((await pool<{ n: number }[]>`select 4 as n`)[0].n).toBe(4)
  })
})
