import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The layering of docs/architecture (guide Part 2, "Dependency direction"), checked from imports and file contents.
 * Where today's code still breaks a rule, the exception is listed here by name as known debt: a new breach fails,
 * and so does an entry that no longer applies (delete it), so these lists only ever shrink.
 */

const ROOT = path.resolve(import.meta.dirname, '../..')
const posix = (p: string) => p.split(path.sep).join('/')

function files(dir: string, pattern: RegExp): string[] {
  const out: string[] = []
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = posix(path.join(dir, entry.name))
    if (entry.isDirectory()) out.push(...files(rel, pattern))
    else if (pattern.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel)
  }
  return out
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const sourceFiles = () => ['src', 'routes', 'worker', 'islands'].flatMap((d) => files(d, /\.tsx?$/))

/** Relative imports (static, dynamic and `import type`), as repository paths. */
const importsOf = (file: string) =>
  [...read(file).matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)]
    .map((m) => posix(path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), m[1]))))

/** Package imports (`hono`, `hono/jsx` …). */
const packagesOf = (file: string) =>
  [...read(file).matchAll(/(?:from|import)\s*\(?\s*['"]([^.'"][^'"]*)['"]/g)].map((m) => m[1])

/** `src/<domain>/…` → domain; files directly in src/ (config, errors, deps, composition roots) belong to none. */
const domainOf = (file: string) => {
  const parts = file.split('/')
  return parts[0] === 'src' && parts.length > 2 ? parts[1] : null
}

/**
 * src/ domains from the ground up: a domain may import only domains listed before it. This order is the intended
 * architecture (pure helpers, then our database's building blocks, then the product domains that build on them,
 * then HTTP plumbing and server-rendered UI). Alerts and dashboards sit above queries before they exist: queries never
 * import the features built on them (those subscribe to queries/archived.ts and executions/result-stored.ts).
 */
const LAYERS = [
  'shared', 'validation', 'visualizations', 'type-registry', 'db', 'permissions', 'jobs', 'mail', 'events', 'audit', 'settings', 'runners',
  'data-sources', 'results', 'auth', 'users', 'groups', 'grants', 'favorites', 'executions', 'schedules', 'workers',
  'queries', 'destinations', 'alerts', 'dashboards', 'orgs', 'sign-in', 'snippets', 'imports', 'demo', 'session', 'monitoring', 'http', 'ui',
]

/** Known debt: imports that run up the layers today ("from -> to"). Remove an entry when its import is gone. */
const UPWARD_DEBT = new Set<string>([
  'auth -> orgs', 'auth -> queries', 'auth -> users', 'executions -> workers', 'http -> ui',
  'users -> groups',
])

/** Where SQL on Sightline's own database may be written: stores, src/db/, and the runners (SQL sent to data sources). */
const mayHoldSql = (file: string) =>
  /(^|\/|-)store\.ts$/.test(file) || file.startsWith('src/db/') || file.startsWith('src/runners/')

/** A postgres.js tagged template (`sql\`…\``, `tx<Row[]>\`…\``, `this.sql\`…\``) or an `.unsafe(` call. */
const SQL_PATTERN = /(?<!`)\b(?:sql|db|tx|trx)(?:<[^`;]*>)?`|\.unsafe\(/
const isComment = (line: string) => /^\s*(\/\/|\*|\/\*)/.test(line)

/** The guide: "Past 400 lines, split the file". */
const MAX_LINES = 400

describe('project structure', () => {
  it('every route file is mounted in routes/manifest.ts', () => {
    const manifest = read('routes/manifest.ts')
    const routeFiles = files('routes', /\.tsx?$/).filter((f) => f !== 'routes/manifest.ts')
    for (const file of routeFiles) {
      const spec = './' + path.posix.relative('routes', file)
      expect(manifest, `${file} is not in the manifest`).toContain(`'${spec}'`)
    }
  })

  it('islands import only shared code, visualizations and each other (they run in the browser)', () => {
    for (const file of files('islands', /\.tsx?$/)) {
      for (const target of importsOf(file)) {
        const allowed = target.startsWith('islands/') || target.startsWith('src/shared/') ||
          (target.startsWith('src/visualizations/') && !target.includes('.server.'))
        expect(allowed, `${file} imports ${target}`).toBe(true)
      }
    }
  })

  it('routes never reach the database directly: they go through services', () => {
    for (const file of files('routes', /\.tsx?$/)) {
      for (const target of importsOf(file)) {
        expect(/(^|\/|-)store\.ts$|^src\/db\//.test(target), `${file} imports ${target}`).toBe(false)
      }
    }
  })

  it('the worker never imports routes, islands or HTTP plumbing, nor needs the web process\'s Deps (only CoreDeps)', () => {
    for (const file of files('worker', /\.tsx?$/)) {
      for (const target of importsOf(file)) {
        expect(/^(routes|islands)\/|^src\/http\//.test(target), `${file} imports ${target}`).toBe(false)
      }
      expect(/\bDeps\b/.test(read(file)), `${file} uses the web process's Deps`).toBe(false)
    }
  })

  it('src/ never imports routes/ or worker/ (except the composition roots), and only server UI renders islands', () => {
    const roots = new Set(['src/app.ts', 'src/start.ts', 'src/main.ts'])
    for (const file of files('src', /\.tsx?$/).filter((f) => !roots.has(f))) {
      for (const target of importsOf(file)) {
        expect(/^(routes|worker)\//.test(target), `${file} imports ${target}`).toBe(false)
        if (!file.startsWith('src/ui/')) expect(target.startsWith('islands/'), `${file} imports ${target}`).toBe(false)
      }
    }
  })

  it('src/ domains import only the layers below them, so no two domains depend on each other', () => {
    const upward = new Set<string>()
    for (const file of files('src', /\.tsx?$/)) {
      const from = domainOf(file)
      if (!from) continue
      expect(LAYERS, `src/${from}/ is not placed in LAYERS`).toContain(from)
      for (const target of importsOf(file)) {
        const to = domainOf(target)
        if (!to || to === from) continue
        expect(LAYERS, `src/${to}/ is not placed in LAYERS`).toContain(to)
        if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
          upward.add(`${from} -> ${to}`)
          expect(UPWARD_DEBT.has(`${from} -> ${to}`), `${file} imports ${target}: src/${from}/ sits below src/${to}/ (a folder cycle in the making)`).toBe(true)
        }
      }
    }
    expect([...UPWARD_DEBT].filter((e) => !upward.has(e)), 'UPWARD_DEBT entries that no longer apply: delete them').toEqual([])
  })

  it('SQL on our database is written only in stores, src/db/ and migrations', () => {
    for (const file of sourceFiles().filter((f) => !mayHoldSql(f))) {
      const line = read(file).split('\n').findIndex((l) => !isComment(l) && SQL_PATTERN.test(l))
      expect(line, `${file}:${line + 1} holds SQL: move it into its domain's store.ts`).toBe(-1)
    }
  })

  it('stores never import services', () => {
    for (const file of files('src', /store\.ts$/)) {
      for (const target of importsOf(file)) {
        expect(/service\.ts$/.test(target), `${file} imports ${target}`).toBe(false)
      }
    }
  })

  it('services are free of HTTP: they take plain values and throw the errors of src/errors.ts', () => {
    for (const file of files('src', /^service\.ts$/)) {
      const http = importsOf(file).some((t) => t.startsWith('src/http/')) || packagesOf(file).some((p) => p === 'hono' || p.startsWith('hono/'))
      expect(http, `${file} imports hono or src/http/`).toBe(false)
    }
  })

  it(`no source file runs past ${MAX_LINES} lines`, () => {
    for (const file of sourceFiles()) {
      expect(read(file).split('\n').length, `${file} is over ${MAX_LINES} lines: split it by concern`).toBeLessThanOrEqual(MAX_LINES)
    }
  })

  it('migrations are numbered, unique, and plain SQL', () => {
    const names = fs.readdirSync(path.join(ROOT, 'sql/migrations'))
    expect(names.every((n) => /^\d{4}_[a-z0-9_]+\.sql$/.test(n))).toBe(true)
    const numbers = names.map((n) => n.slice(0, 4))
    expect(new Set(numbers).size).toBe(numbers.length)
  })
})
