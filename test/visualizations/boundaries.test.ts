import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const DIR = path.join(ROOT, 'src/visualizations')

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sources(full)
    return /\.ts$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name) ? [full] : []
  })
}

const imports = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1])

describe('src/visualizations boundaries', () => {
  const files = sources(DIR)

  it('is isomorphic: only *.server.ts files import Node or linkedom', () => {
    for (const file of files.filter((f) => !f.endsWith('.server.ts'))) {
      for (const target of imports(file)) {
        expect(target.startsWith('node:') || target === 'linkedom', `${path.relative(ROOT, file)} imports ${target}`).toBe(false)
      }
    }
  })

  it('imports nothing from the rest of src/ but src/shared', () => {
    for (const file of files) {
      for (const target of imports(file).filter((t) => t.startsWith('.'))) {
        const resolved = path.resolve(path.dirname(file), target)
        const inside = resolved.startsWith(DIR + path.sep) || resolved.startsWith(path.join(ROOT, 'src/shared') + path.sep)
        expect(inside, `${path.relative(ROOT, file)} imports ${target}`).toBe(true)
      }
    }
  })

  it('keeps files small', () => {
    for (const file of files) {
      expect(fs.readFileSync(file, 'utf8').split('\n').length, path.relative(ROOT, file)).toBeLessThan(250)
    }
  })
})
