import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The layering of docs/architecture.md (bands of domains, each entered by its front door), checked from imports and
 * file contents. There are no exceptions: a breach fails with the file, the import and what to do instead.
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

function allFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = posix(path.join(dir, e.name))
    return e.isDirectory() ? allFiles(rel) : [rel]
  })
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const sourceFiles = () => ['src', 'routes', 'worker', 'islands'].flatMap((d) => files(d, /\.tsx?$/))
/** Tests under test/ (those beside a domain's files are inside it). */
const testFiles = () => allFiles('test').filter((f) => /\.tsx?$/.test(f))

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
 * src/ domains in bands, from the ground up (docs/architecture.md draws them): a domain may import only domains of
 * the bands below it and, within its band, those listed before it. So no two domains depend on each other and no
 * folder cycle can form. Features sit above queries' consumers: queries never import the features built on them
 * (those subscribe to queries/archived.ts and executions/result-stored.ts). A new domain is added to its band here.
 */
const BANDS = {
  /** Building blocks with no product rules of their own. */
  platform: ['shared', 'validation', 'visualizations', 'type-registry', 'db', 'assets', 'permissions', 'jobs', 'mail', 'settings', 'session'],
  /** Who is asking and what they may do. */
  identity: ['events', 'audit', 'credentials', 'groups', 'users', 'orgs', 'sign-in', 'scim', 'grants', 'favorites'],
  /** Where answers come from: sources, runs, results, and the workers that run them. */
  data: ['runners', 'data-sources', 'results', 'executions', 'schedules', 'workers'],
  /** What people make with the answers. */
  features: ['queries', 'destinations', 'alerts', 'dashboards', 'rendering', 'reports', 'imports', 'snippets', 'demo', 'monitoring'],
  /** The web shell's server half (routes/ and islands/ sit on top of it; worker/ beside it). */
  web: ['http', 'ui'],
}
const LAYERS = Object.values(BANDS).flat()
const bandOf = (domain: string) => Object.entries(BANDS).find(([, ds]) => ds.includes(domain))?.[0]

/**
 * Kits of small browser-safe modules that islands bundle one by one (a door would put every module, and the
 * server-only ones, in every bundle): imported file by file. Every other domain is entered by its door.
 */
const KITS = new Set(['shared', 'visualizations'])
const doorOf = (domain: string) => `src/${domain}/index.ts`

/**
 * Files directly in src/ that belong to the platform band (the rest are composition roots: app, start, create-deps,
 * main …). src/deps.ts declares what services are given, so it names only platform types.
 */
const PLATFORM_FILES = new Set(['src/config.ts', 'src/deps.ts', 'src/errors.ts', 'src/log.ts', 'src/version.ts', 'src/node-version.ts', 'src/object-types.ts', 'src/sign-in-limits.ts'])

/** Where SQL on Sightline's own database may be written: stores, src/db/, and the runners (SQL sent to data sources). */
const mayHoldSql = (file: string) =>
  /(^|\/|-)store\.ts$/.test(file) || file.startsWith('src/db/') || file.startsWith('src/runners/')

/** A postgres.js tagged template (`sql\`…\``, `tx<Row[]>\`…\``, `this.sql\`…\``) or an `.unsafe(` call. */
const SQL_PATTERN = /(?<!`)\b(?:sql|db|tx|trx)(?:<[^`;]*>)?`|\.unsafe\(/
const isComment = (line: string) => /^\s*(\/\/|\*|\/\*)/.test(line)

/** The guide: "Past 400 lines, split the file". */
const MAX_LINES = 400

describe('project structure', () => {
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

  it('src/ domains import only the bands below them, and those before them in their own band', () => {
    for (const file of files('src', /\.tsx?$/)) {
      const from = domainOf(file)
      if (!from) continue
      expect(LAYERS, `src/${from}/ is not placed in BANDS (test/unit/structure.test.ts): add it to its band`).toContain(from)
      for (const target of importsOf(file)) {
        const to = domainOf(target)
        if (!to || to === from) continue
        expect(LAYERS, `src/${to}/ is not placed in BANDS`).toContain(to)
        const where = bandOf(to) === bandOf(from) ? `the ${bandOf(from)} band after it` : `the ${bandOf(to)} band, above ${bandOf(from)}`
        expect(LAYERS.indexOf(to) < LAYERS.indexOf(from), `${file} imports ${target}: src/${to}/ sits in ${where}; move the code to the lower domain or hand it in from above`).toBe(true)
      }
    }
  })

  it('configuration, errors, logging and the Deps types import nothing above the platform band', () => {
    for (const file of PLATFORM_FILES) {
      for (const target of importsOf(file)) {
        const to = domainOf(target)
        const ok = to ? bandOf(to) === 'platform' : PLATFORM_FILES.has(target)
        expect(ok, `${file} imports ${target}: it belongs to the platform band`).toBe(true)
      }
    }
  })

  it('every domain is entered by its front door, src/<domain>/index.ts, from outside it', () => {
    const outside = [...sourceFiles(), ...['bench', 'scripts'].flatMap((d) => files(d, /\.tsx?$/)), ...testFiles()]
    for (const file of outside) {
      for (const target of importsOf(file)) {
        const to = domainOf(target)
        if (!to || to === domainOf(file) || KITS.has(to)) continue
        expect(target, `${file} imports ${target}: import it from the door ${doorOf(to)} (and export it there if it is not yet)`).toBe(doorOf(to))
      }
    }
  })

  it('a domain\'s own files import each other, never their door (which would load the whole domain into each file)', () => {
    for (const file of files('src', /\.tsx?$/)) {
      const domain = domainOf(file)
      if (!domain || file === doorOf(domain)) continue
      expect(importsOf(file).includes(doorOf(domain)), `${file} imports its own door ${doorOf(domain)}: import the file itself`).toBe(false)
    }
  })

  it('domains read src/deps.ts for its types only (it is composed above them, in start-up)', () => {
    for (const file of files('src', /\.tsx?$/).filter((f) => domainOf(f))) {
      const valueImport = /^import\s+(?!type\b)[^'"]*from\s+['"][./]+deps\.ts['"]/m.test(read(file))
      expect(valueImport, `${file} imports values from src/deps.ts`).toBe(false)
    }
  })

  it('doors only re-export their own domain\'s files', () => {
    for (const domain of LAYERS.filter((d) => !KITS.has(d) && fs.existsSync(path.join(ROOT, doorOf(d))))) {
      for (const target of importsOf(doorOf(domain))) {
        expect(domainOf(target), `${doorOf(domain)} re-exports ${target}`).toBe(domain)
      }
    }
  })

  it('no folder cycles: src/ domains, the files directly in src/, routes/, islands/ and worker/ import each other one way only', () => {
    const folderOf = (file: string) => domainOf(file) ?? (file.startsWith('src/') ? file : file.split('/')[0])
    const edges = new Map<string, Set<string>>()
    for (const file of sourceFiles()) {
      const from = folderOf(file)
      if (!from) continue
      for (const target of importsOf(file)) {
        const to = folderOf(target)
        if (!to || to === from) continue
        if (!edges.has(from)) edges.set(from, new Set())
        edges.get(from)!.add(to)
      }
    }
    // a depth-first walk: a folder met again while still on the path closes a cycle
    const state = new Map<string, 'open' | 'done'>()
    const walk = (folder: string, trail: string[]) => {
      state.set(folder, 'open')
      for (const next of edges.get(folder) ?? []) {
        if (state.get(next) === 'open') expect.fail(`folder cycle: ${[...trail.slice(trail.indexOf(next)), folder, next].join(' -> ')}`)
        if (!state.has(next)) walk(next, [...trail, folder])
      }
      state.set(folder, 'done')
    }
    for (const folder of edges.keys()) if (!state.has(folder)) walk(folder, [])
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
