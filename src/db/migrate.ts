import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Sql } from './sql.ts'
import { ADVISORY_LOCK } from './advisory-locks.ts'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../sql/migrations')

interface Migration {
  version: string
  name: string
  text: string
  checksum: string
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8')
      return {
        version: file.slice(0, 4),
        name: file.slice(5, -4),
        text,
        checksum: crypto.createHash('sha256').update(text).digest('hex'),
      }
    })
}

/**
 * Apply every pending migration in order, each in its own transaction, under an advisory lock so that several
 * processes starting at once against one database apply each file exactly once.
 */
export async function migrate(sql: Sql, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = []
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${ADVISORY_LOCK.migrations})`
    await tx`create table if not exists schema_migrations (
      version text primary key, name text not null, checksum text not null, applied_at timestamptz not null default now())`
    const done = new Map((await tx<{ version: string; checksum: string }[]>`select version, checksum from schema_migrations`)
      .map((row) => [row.version, row.checksum]))
    const known = new Set(migrations.map((m) => m.version))
    const unknown = [...done.keys()].filter((v) => !known.has(v))
    if (unknown.length) {
      throw new Error(`The database has migrations this version of Sightline does not know (${unknown.join(', ')}); run a newer release.`)
    }
    for (const m of migrations) {
      const checksum = done.get(m.version)
      if (checksum && checksum !== m.checksum) throw new Error(`Migration ${m.version}_${m.name} was changed after it was applied.`)
      if (checksum) continue
      await tx.savepoint(async (sp) => {
        await sp.unsafe(m.text)
        await sp`insert into schema_migrations (version, name, checksum) values (${m.version}, ${m.name}, ${m.checksum})`
      })
      applied.push(`${m.version}_${m.name}`)
    }
  })
  return applied
}
