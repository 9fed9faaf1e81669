import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { digitSeparatedNumbers, sqlInSource } from '../helpers/sql-text.ts'

/**
 * Sightline supports every PostgreSQL its developers still maintain (15 and up). Digit separators in numbers
 * (`1_000`) are PostgreSQL 16 syntax: on 15 the statement fails. JavaScript numbers passed as parameters may have them;
 * SQL text may not.
 */

const ROOT = path.resolve(import.meta.dirname, '../..')

function files(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(path.join(ROOT, dir))) return []
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name)
    return entry.isDirectory() ? files(rel, pattern) : pattern.test(entry.name) ? [rel] : []
  })
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')

describe('SQL that PostgreSQL 15 accepts', () => {
  it('finds digit-separated numbers in SQL, and only there', () => {
    expect(digitSeparatedNumbers('select pg_advisory_xact_lock(727_1002)')).toEqual(['727_1002'])
    expect(digitSeparatedNumbers("select 1_000 as n, 2.5_0 from t_1_2 where c = '3_000' -- 4_000\n/* 5_000 */")).toEqual(['1_000'])
    expect(digitSeparatedNumbers('select 1000, t_1, col_2_3, $1 from "x_1_2"')).toEqual([])
    const found = sqlInSource([
      'const a = 10_000',
      'await db`select pg_advisory_xact_lock(727_1003, ${ids.map((x) => x * 1_000)}::int)`',
      "await tx<{ n: number }[]>`select ${`${1_000}`} as n, 2_000 as m`",
      "await sql.unsafe('select 3_000')",
      'await sql.unsafe(text, [5_000])',
    ].join('\n'))
    expect(found.flatMap(digitSeparatedNumbers)).toEqual(['727_1003', '2_000', '3_000'])
  })

  it('migrations and the demo dataset have no digit-separated number', () => {
    const offenders = files('sql', /\.sql$/).flatMap((file) => digitSeparatedNumbers(read(file)).map((n) => `${file}: ${n}`))
    expect(offenders).toEqual([])
  })

  it('SQL in src/, routes/ and worker/ (tagged templates and .unsafe strings) has no digit-separated number', () => {
    const offenders = ['src', 'routes', 'worker'].flatMap((d) => files(d, /\.tsx?$/)).filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((file) => sqlInSource(read(file)).flatMap(digitSeparatedNumbers).map((n) => `${file}: ${n}`))
    expect(offenders).toEqual([])
  })
})
