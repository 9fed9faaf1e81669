import crypto from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recoveryMessages } from '../../src/workers/index.ts'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { eventually } from '../helpers/wait.ts'
import { workerProcesses } from '../helpers/workers.ts'

/*
 * A worker killed with SIGKILL while its statement inserts a row. The statement waits for a lock the test holds, so
 * "it is still running" is a fact; once the worker is dead the test lets it go, and the orphan finishes on its own
 * before any recovery looks at it (the engine only notices the dead client when it answers it). The row must then
 * exist once, or the run must say it may have changed data and not run again.
 */
const DEAD_AFTER = 4
const WAIT_MS = 120_000

describe('a worker killed in the middle of a writing statement', () => {
  let t: TestApp
  let admin: Client
  let workers: ReturnType<typeof workerProcesses>
  const mysqlServer = { host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.TEST_MYSQL_PORT ?? 3306), user: 'root', password: '' }
  const mysqlDb = `sightline_${process.pid}_${crypto.randomBytes(3).toString('hex')}`
  let my: mysql.Connection

  beforeAll(async () => {
    t = await createTestApp({ workerDeadAfterSeconds: DEAD_AFTER })
    admin = await setUp(t.app)
    workers = workerProcesses(t, DEAD_AFTER)
    await t.db.sql`create table pg_log (n int)`
    my = await mysql.createConnection({ ...mysqlServer, multipleStatements: true })
    await my.query(`create database ${mysqlDb}; use ${mysqlDb};
      create table gate (n int primary key) engine = InnoDB; insert into gate values (1);
      create table my_log (n int) engine = InnoDB`)
  })
  afterAll(async () => {
    await workers?.close()
    await my?.query(`drop database if exists ${mysqlDb}`)
    await my?.end()
    await t?.close()
  })

  const source = async (name: string, type: string, options: Record<string, unknown>) =>
    (await (await admin.post('/api/data_sources', { name, type, options })).json()).id as number
  const submit = async (dsId: number, query: string) => {
    const answer = await (await admin.post('/api/query_results', { data_source_id: dsId, query, max_age: 0 })).json()
    expect(answer.job, JSON.stringify(answer)).toBeDefined()
    return answer.job.id as string
  }
  /** Polls as the browser does until the job has ended. */
  const outcome = (id: string) =>
    eventually(async () => (await (await admin.get(`/api/jobs/${id}`)).json()).job, (j) => j.status >= 3, `job ${id} ended`, WAIT_MS)
  /** Where the execution's statement runs, once the worker running it has written it down. */
  const handleOf = (id: string) =>
    eventually(async () => (await t.db.sql<{ cancel_handle: Record<string, string | number> | null }[]>`
      select cancel_handle from executions where id = ${id} and status = 2`)[0]?.cancel_handle, (h) => !!h, `execution ${id} says where it runs`, WAIT_MS)
      .then((h) => h!)
  /** The worker process running the execution. */
  const workerOf = async (id: string, pair: Awaited<ReturnType<typeof workers.start>>[]) => {
    const [{ pid }] = await t.db.sql<{ pid: number }[]>`
      select h.pid from executions e join worker_heartbeats h on h.worker_id = e.worker_id where e.id = ${id}`
    return pair.find((w) => w.child.pid === pid)!
  }
  const attempts = async (id: string) => (await t.db.sql<{ attempts: number }[]>`select attempts from executions where id = ${id}`)[0].attempts

  it('PostgreSQL: the orphaned insert, finished after its worker died, is not committed, and the query runs again once', async () => {
    const dsId = await source('PG', 'pg', pgOptionsFor(t))
    const lock = await holdLock(t.db.sql)
    const w = await workers.start()
    const id = await submit(dsId, `insert into pg_log ${lock.query('1')} returning n`)
    const { pid } = await handleOf(id)
    await eventually(async () => (await t.db.sql`select 1 from pg_stat_activity where pid = ${pid} and wait_event_type = 'Lock'`).length,
      (n) => n === 1, 'the insert waits for the lock')
    await workers.kill(w)
    await lock.release()
    // the orphan finishes its insert and then finds its client gone
    await eventually(async () => (await t.db.sql`select 1 from pg_stat_activity where pid = ${pid}`).length, (n) => n === 0, 'the orphan has ended')

    await workers.start() // recovers the execution and runs it again if it may
    const done = await outcome(id)
    expect(done).toMatchObject({ status: 3, error: '' })
    expect(await t.db.sql`select n from pg_log`).toEqual([{ n: 1 }])
    expect(await attempts(id)).toBe(2)
    await workers.stopAll()
  }, 240_000)

  describe('MySQL', () => {
    const options = () => ({ host: mysqlServer.host, port: mysqlServer.port, user: mysqlServer.user, passwd: mysqlServer.password, db: mysqlDb })
    /** Holds the gate row, so that a statement reading it waits; `release` lets it go. */
    const holdGate = async () => {
      const holder = await mysql.createConnection({ ...mysqlServer, database: mysqlDb })
      await holder.query('start transaction')
      await holder.query('select n from gate for update')
      return { release: async () => { await holder.query('rollback'); await holder.end() } }
    }
    const waitsForLock = async (threadId: number) => {
      const [rows] = await my.query(`select count(*) as n from information_schema.innodb_trx where trx_mysql_thread_id = ? and trx_state = 'LOCK WAIT'`, [threadId])
      return Number((rows as { n: number }[])[0].n) === 1
    }
    const connected = async (threadId: number) => {
      const [rows] = await my.query('select count(*) as n from information_schema.processlist where id = ?', [threadId])
      return Number((rows as { n: number }[])[0].n) === 1
    }
    const logged = async () => (await my.query(`select n from ${mysqlDb}.my_log`))[0]
    const insert = `insert into my_log (n) select n from gate lock in share mode; select count(*) as n from my_log`

    it('does not run again an insert that its orphan may have finished', async () => {
      await my.query(`delete from ${mysqlDb}.my_log`)
      const dsId = await source('MySQL finished', 'mysql', options())
      const gate = await holdGate()
      const w = await workers.start()
      const id = await submit(dsId, insert)
      const threadId = Number((await handleOf(id)).thread_id)
      await eventually(() => waitsForLock(threadId), (yes) => yes, 'the insert waits for the lock')
      await workers.kill(w)
      await gate.release()
      await eventually(() => connected(threadId), (yes) => !yes, 'the orphan has ended')

      await workers.start()
      const done = await outcome(id)
      expect(done).toMatchObject({ status: 4, error: recoveryMessages.mayHaveChangedData })
      expect(await attempts(id)).toBe(1)
      // the dead worker never committed: its orphan's insert was rolled back with its connection
      expect(await logged()).toEqual([])
      await workers.stopAll()
    }, 240_000)

    it('stops an insert still running, rolled back, and runs it again once', async () => {
      await my.query(`delete from ${mysqlDb}.my_log`)
      const dsId = await source('MySQL running', 'mysql', options())
      const gate = await holdGate()
      const pair = await Promise.all([workers.start(), workers.start()])
      const id = await submit(dsId, insert)
      const threadId = Number((await handleOf(id)).thread_id)
      await eventually(() => waitsForLock(threadId), (yes) => yes, 'the insert waits for the lock')
      await workers.kill(await workerOf(id, pair))
      // the other worker stops the orphan (still waiting) and runs the query again, which waits in turn
      await eventually(() => connected(threadId), (yes) => !yes, 'the orphan is stopped', WAIT_MS)
      await eventually(async () => (await handleOf(id)).thread_id, (retry) => retry !== threadId, 'the query runs again', WAIT_MS)
      await gate.release()

      const done = await outcome(id)
      expect(done).toMatchObject({ status: 3, error: '' })
      expect(await logged()).toEqual([{ n: 1 }])
      expect(await attempts(id)).toBe(2)
      await workers.stopAll()
    }, 240_000)
  })
})
