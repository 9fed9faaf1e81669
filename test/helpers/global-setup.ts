import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { useEmbeddedPostgres, migrate, connect } from '../../src/db/index.ts'
import { runMigrations } from 'graphile-worker'
import { quietLogger } from '../../worker/main.ts'

export const TEMPLATE_DB = 'sightline_template'

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string
  }
}

/**
 * One PostgreSQL for the whole run (embedded in a temp dir, or TEST_DATABASE_URL), and one migrated template
 * database that every test file copies (about 100 ms), so files run in parallel without sharing state.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL
  let teardown = async () => {}
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-test-'))
    fs.chmodSync(dir, 0o755) // the postgres user must be able to reach its data dir when we run as root
    const pg = await useEmbeddedPostgres(dir, 'postgres')
    adminUrl = pg.url
    teardown = async () => {
      await pg.release()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  const admin = connect(adminUrl, { max: 1 })
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`)
  await admin.unsafe(`create database ${TEMPLATE_DB}`)
  await admin.end()
  const template = connect(withDatabase(adminUrl, TEMPLATE_DB), { max: 1 })
  await migrate(template)
  await template.end()
  await runMigrations({ connectionString: withDatabase(adminUrl, TEMPLATE_DB), logger: quietLogger })
  project.provide('pgAdminUrl', adminUrl)
  return teardown
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = '/' + database
  return u.toString()
}
