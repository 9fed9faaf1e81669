import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import { migrate, connect, type Sql } from '../../src/db/index.ts'
import { withDatabase } from '../helpers/global-setup.ts'

/**
 * The schema that all migrations build, pinned in a committed file, so any change to tables, columns, types,
 * defaults, indexes, constraints, functions or triggers shows up in review as a diff of that file.
 */

const SNAPSHOT = path.join(import.meta.dirname, 'schema.snapshot.txt')
const UPDATE = `If the change is intended, update the snapshot: UPDATE_SCHEMA_SNAPSHOT=1 NODE_ENV=test npx vitest run ${posixRel(import.meta.filename)}, and commit ${posixRel(SNAPSHOT)}`

function posixRel(file: string) {
  return path.relative(path.resolve(import.meta.dirname, '../..'), file).split(path.sep).join('/')
}

/** A normalized, sorted text dump of the public schema: one line per fact, stable across runs and machines. */
async function dumpSchema(sql: Sql): Promise<string> {
  const lines: string[] = []
  for (const e of await sql<{ extname: string }[]>`select extname from pg_extension where extname <> 'plpgsql' order by 1`) {
    lines.push(`extension ${e.extname}`)
  }
  const columns = await sql<{ table_name: string; column_name: string; type: string; nullable: boolean; def: string | null }[]>`
    select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type,
           not a.attnotnull as nullable, pg_get_expr(d.adbin, d.adrelid) as def
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped
     order by c.relname, a.attnum`
  for (const c of columns) {
    lines.push(`column ${c.table_name}.${c.column_name} ${c.type}${c.nullable ? '' : ' not null'}${c.def ? ` default ${c.def}` : ''}`)
  }
  const constraints = await sql<{ table_name: string; conname: string; def: string }[]>`
    select c.relname as table_name, k.conname, pg_get_constraintdef(k.oid) as def
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' order by 1, 2`
  for (const k of constraints) lines.push(`constraint ${k.table_name}.${k.conname} ${k.def}`)
  const indexes = await sql<{ indexdef: string }[]>`select indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`
  for (const i of indexes) lines.push(`index ${i.indexdef.replace(/ ON public\./, ' ON ')}`)
  const functions = await sql<{ signature: string; result: string; body: string }[]>`
    select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature,
           pg_get_function_result(p.oid) as result, p.prosrc as body
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
     order by 1`
  for (const f of functions) {
    // the body by hash: its text lives in the migrations; the snapshot only has to show that it changed
    lines.push(`function ${f.signature} returns ${f.result} body sha256:${crypto.createHash('sha256').update(f.body.trim()).digest('hex').slice(0, 16)}`)
  }
  const triggers = await sql<{ def: string }[]>`
    select pg_get_triggerdef(t.oid) as def from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and not t.tgisinternal order by c.relname, t.tgname`
  for (const t of triggers) lines.push(`trigger ${t.def.replace(/ ON public\./, ' ON ')}`)
  return lines.join('\n') + '\n'
}

describe('database schema', () => {
  const adminUrl = inject('pgAdminUrl')
  const name = `schema_${process.pid}_${crypto.randomBytes(4).toString('hex')}`
  let sql: Sql

  beforeAll(async () => {
    const admin = connect(adminUrl, { max: 1 })
    await admin.unsafe(`create database ${name}`)
    await admin.end()
    sql = connect(withDatabase(adminUrl, name), { max: 1 })
  })

  afterAll(async () => {
    await sql?.end({ timeout: 1 })
    const admin = connect(adminUrl, { max: 1 })
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.end()
  })

  it('all migrations applied to an empty database build exactly the committed schema snapshot', async () => {
    const applied = await migrate(sql)
    expect(applied.length).toBeGreaterThan(0)
    const dump = await dumpSchema(sql)
    if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') fs.writeFileSync(SNAPSHOT, dump)
    const committed = fs.existsSync(SNAPSHOT) ? fs.readFileSync(SNAPSHOT, 'utf8') : '(no snapshot committed yet)'
    expect(dump, `The schema differs from ${posixRel(SNAPSHOT)}. ${UPDATE}`).toBe(committed)
  })
})
