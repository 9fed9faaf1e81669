import crypto from 'node:crypto'
import { inject } from 'vitest'
import { connect, type Sql } from '../../src/db/index.ts'
import { TEMPLATE_DB, withDatabase } from './global-setup.ts'

export interface TestDatabase {
  url: string
  sql: Sql
  drop(): Promise<void>
}

/** A fresh, migrated database for one test file, copied from the run's template. */
export async function freshDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl')
  const name = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`
  const admin = connect(adminUrl, { max: 1 })
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`)
  await admin.end()
  const url = withDatabase(adminUrl, name)
  const sql = connect(url, { max: 5 })
  return {
    url,
    sql,
    drop: async () => {
      await sql.end({ timeout: 1 })
      const a = connect(adminUrl, { max: 1 })
      await a.unsafe(`drop database if exists ${name} with (force)`)
      await a.end()
    },
  }
}
