import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER, warehouseOptions } from '../helpers/web-session.ts'
import { pageSuite } from './support.ts'

/**
 * The query editor as the server draws it: a parameter's settings offered only to those who may edit the query, and
 * the scripts it asks for: the visualization editor's code only when that editor opens, CodeMirror in the editor's
 * island alone, and the editor's download bounded.
 */
const suite = pageSuite()
let member: Map<string, string>
let warehouse: number

beforeAll(async () => {
  warehouse = (await suite.api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  member = await suite.signIn(MEMBER)
})

const colorParameter = { name: 'color', title: 'Color', type: 'enum', enumOptions: 'red\ngreen\nblue', value: 'red', global: false }

describe('a parameter’s settings', () => {
  it('is not offered to someone who cannot edit the query', async () => {
    const { id } = await suite.api<{ id: number }>('POST', '/api/queries', {
      name: 'Ada’s paint', query: 'select {{ color }} as c', data_source_id: warehouse, options: { parameters: [colorParameter] },
    })
    const asMember = await suite.get(`/queries/${id}/source`, member)
    expect(asMember.status).toBe(200)
    expect(asMember.document.querySelectorAll('[data-parameter="color"]').length).toBe(1)
    expect(asMember.document.querySelectorAll('[data-parameter-settings]').length).toBe(0)
    // the owner is offered them in the same drawing, so their absence above is the member's
    expect((await suite.get(`/queries/${id}/source`)).document.querySelectorAll('[data-parameter-settings]').length).toBeGreaterThan(0)
  })
})

describe('the source page', () => {
  it('loads the visualization editor’s code only when it opens', async () => {
    const dist = path.resolve(import.meta.dirname, '../../dist')
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as { islands: Record<string, { file: string; imports: string[] }> }
    const files = [manifest.islands.QueryEditor.file, ...manifest.islands.QueryEditor.imports]
    expect(files.filter((f) => /VisualizationEditorDialog/.test(f))).toEqual([])
    // and the page itself asks for the editor's code, not the dialog's
    const { id } = await suite.api<{ id: number }>('POST', '/api/queries', { name: 'Plain', query: 'select 1', data_source_id: warehouse })
    const { scripts } = await suite.get(`/queries/${id}/source`)
    expect(scripts.some((s) => s.includes(path.basename(manifest.islands.QueryEditor.file)))).toBe(true)
    expect(scripts.filter((s) => /VisualizationEditorDialog/.test(s))).toEqual([])
  })
})

describe('what the browser downloads', () => {
  it('keeps CodeMirror in the editor island only, and the editor under 250 KB gzipped', () => {
    const dist = path.resolve(import.meta.dirname, '../../dist')
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as { islands: Record<string, { file: string; imports: string[] }> }
    const filesOf = (name: string) => [manifest.islands[name].file, ...manifest.islands[name].imports]
    const hasCodeMirror = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8').includes('.cm-content')
    expect(filesOf('QueryEditor').some(hasCodeMirror)).toBe(true)
    for (const name of Object.keys(manifest.islands).filter((n) => n !== 'QueryEditor')) {
      expect(filesOf(name).filter(hasCodeMirror), `${name} loads CodeMirror`).toEqual([])
    }
    const own = filesOf('QueryEditor').reduce((n, file) => n + gzipSync(fs.readFileSync(path.join(dist, file))).length, 0)
    console.log(`QueryEditor island: ${(own / 1024).toFixed(1)} KB gzipped (with its chunks, without the boot script)`)
    expect(own).toBeLessThan(250 * 1024)
  })
})
