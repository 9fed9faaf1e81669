import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareRouteFiles, MANIFEST_FILE, addressOf, routeManifest } from '../../scripts/routes-manifest.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

describe('the generated route manifest', () => {
  it('routes/manifest.gen.ts is what scripts/routes-manifest.ts writes for the files under routes/ now', () => {
    const checkedIn = fs.readFileSync(path.join(ROOT, MANIFEST_FILE), 'utf8')
    expect(checkedIn, 'run `npm run build` (or `node --import tsx scripts/routes-manifest.ts`) and commit routes/manifest.gen.ts')
      .toBe(routeManifest())
  })

  it('a page file serves its path, index its folder, [id] a number, [name] one segment', () => {
    expect(addressOf('index.tsx')).toBe('/')
    expect(addressOf('users/pending.tsx')).toBe('/users/pending')
    expect(addressOf('dashboards/index.tsx')).toBe('/dashboards')
    expect(addressOf('queries/[id]/source.tsx')).toBe('/queries/:id{[0-9]+}/source')
    expect(addressOf('users/[id]/sessions/[sid]/end.tsx')).toBe('/users/:id{[0-9]+}/sessions/:sid{[0-9]+}/end')
    expect(addressOf('dashboards/[address].tsx')).toBe('/dashboards/:address{[0-9]+(?:-[^/]*)?}')
    expect(addressOf('verify/[token].tsx')).toBe('/verify/:token')
    expect(addressOf('status.json.ts')).toBe('/status.json')
  })

  it('an API file mounts at its resource, a file in the resource folder too', () => {
    expect(addressOf('api/alerts.ts')).toBe('/api/alerts')
    expect(addressOf('api/audit.csv.ts')).toBe('/api/audit.csv')
    expect(addressOf('api/queries/executions.ts')).toBe('/api/queries')
  })

  it('orders named segments before [param] ones, and a resource file before its folder', () => {
    const files = ['queries/[id].tsx', 'queries/[id]/source.tsx', 'queries/new.tsx', 'queries/index.tsx', 'index.tsx',
      'api/queries/executions.ts', 'api/queries.ts', 'users/[id].tsx', 'users/me.tsx']
    expect(files.sort(compareRouteFiles)).toEqual(['index.tsx', 'api/queries.ts', 'api/queries/executions.ts',
      'queries/index.tsx', 'queries/new.tsx', 'queries/[id].tsx', 'queries/[id]/source.tsx', 'users/me.tsx', 'users/[id].tsx'])
  })
})
