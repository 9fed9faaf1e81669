import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')

function files(dir: string, pattern: RegExp): string[] {
  const out: string[] = []
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...files(rel, pattern))
    else if (pattern.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel)
  }
  return out
}

const importsOf = (file: string) =>
  [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)]
    .map((m) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), m[1])))

describe('project structure', () => {
  it('every route file is mounted in routes/manifest.ts', () => {
    const manifest = fs.readFileSync(path.join(ROOT, 'routes/manifest.ts'), 'utf8')
    const routeFiles = files('routes', /\.tsx?$/).filter((f) => f !== path.join('routes', 'manifest.ts'))
    for (const file of routeFiles) {
      const spec = './' + path.relative('routes', file).split(path.sep).join('/')
      expect(manifest, `${file} is not in the manifest`).toContain(`'${spec}'`)
    }
  })

  it('islands import only shared code, visualizations and each other (they run in the browser)', () => {
    for (const file of files('islands', /\.tsx?$/)) {
      for (const target of importsOf(file)) {
        const allowed = target.startsWith('islands') || target.startsWith(path.join('src', 'shared')) ||
          (target.startsWith(path.join('src', 'visualizations')) && !target.includes('.server.'))
        expect(allowed, `${file} imports ${target}`).toBe(true)
      }
    }
  })

  it('routes never reach the database directly: they go through services', () => {
    for (const file of files('routes', /\.tsx?$/)) {
      for (const target of importsOf(file)) {
        expect(/store\.ts$|[/\\]db[/\\]/.test(target), `${file} imports ${target}`).toBe(false)
      }
    }
  })

  it('migrations are numbered, unique, and plain SQL', () => {
    const names = fs.readdirSync(path.join(ROOT, 'sql/migrations'))
    expect(names.every((n) => /^\d{4}_[a-z0-9_]+\.sql$/.test(n))).toBe(true)
    const numbers = names.map((n) => n.slice(0, 4))
    expect(new Set(numbers).size).toBe(numbers.length)
  })
})
