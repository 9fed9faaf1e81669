import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, PHONE } from './support.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * The Share Dashboard dialog tells its owner what sharing would do before they try: while a chart's query takes free
 * text the switch cannot turn sharing on and spec 2 §5's message shows at once; a share made before such a chart was
 * added can still be turned off; and a dashboard never shared does not speak of an address that "no longer works".
 */
const suite = browserSuite()
const { api } = suite
const UNSAFE = 'For your security, sharing is currently not supported for dashboards containing queries with text parameters. Consider changing the text parameters in your query to a different type.'
const boards = { unsafe: '', sharedThenUnsafe: '', plain: '' }
let sharedThenUnsafeId = 0

beforeAll(async () => {
  const source = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Numbers', type: 'pg', options: { host: 'localhost', port: 1, user: 'x', dbname: 'x' } })).id
  const query = async (name: string, text: string, parameters: unknown[] = []) => {
    const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', { data_source_id: source, name, query: text, options: { parameters }, is_draft: false })
    return q.visualizations[0].id
  }
  const byName = await query('By name', "select '{{ who }}' as who", [{ name: 'who', title: 'Who', type: 'text', value: 'Ada' }])
  const plain = await query('Plain', 'select 1 as one')
  const board = async (name: string, ...visualizations: number[]) => {
    const d = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
    for (const [i, v] of visualizations.entries()) {
      await api('POST', '/api/widgets', { dashboard_id: d.id, visualization_id: v, options: { position: { col: i * 3, row: 0, sizeX: 3, sizeY: 6 } } })
    }
    await api('POST', `/api/dashboards/${d.id}`, { is_draft: false })
    return { id: d.id, path: `/dashboards/${d.id}-${d.slug}` }
  }
  boards.unsafe = (await board('Free text board', plain, byName)).path
  boards.plain = (await board('Plain board', plain)).path
  const later = await board('Shared, then free text', plain)
  await api('POST', `/api/dashboards/${later.id}/share`)
  await api('POST', '/api/widgets', { dashboard_id: later.id, visualization_id: byName, options: { position: { col: 3, row: 0, sizeX: 3, sizeY: 6 } } })
  boards.sharedThenUnsafe = later.path
  sharedThenUnsafeId = later.id
})

const shareDialog = async (path: string, viewport = DESKTOP) => {
  const opened = await suite.open(path, { viewport })
  await opened.page.getByRole('button', { name: 'Share' }).click()
  const dialog = opened.page.getByRole('dialog', { name: 'Share Dashboard' })
  await dialog.waitFor()
  return { ...opened, dialog, toggle: dialog.getByRole('switch', { name: 'Allow public access' }) }
}

describe('sharing a dashboard whose chart takes free text', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`says why before any click, and the switch cannot turn sharing on, at ${viewport.width} px`, async () => {
      const { page, dialog, toggle, problems } = await shareDialog(boards.unsafe, viewport)
      await dialog.getByText(UNSAFE).waitFor()
      expect(await toggle.isChecked()).toBe(false)
      expect(await toggle.isDisabled()).toBe(true)
      expect(await dialog.getByText('the address no longer works').count()).toBe(0)
      expect(await layoutProblems(page, { scope: '[data-share-dialog] *' })).toEqual([])
      expect(problems).toEqual([])
    })
  }

  it('still turns off a share made before such a chart was added, and then cannot turn it on again', async () => {
    const { dialog, toggle, problems } = await shareDialog(boards.sharedThenUnsafe)
    await dialog.getByText(UNSAFE).waitFor()
    expect(await toggle.isChecked()).toBe(true)
    await toggle.click()
    await dialog.getByText('Public access is off: the address no longer works.').waitFor()
    expect(await toggle.isChecked()).toBe(false)
    expect(await toggle.isDisabled()).toBe(true)
    expect((await api<{ public_url?: string }>('GET', `/api/dashboards/${sharedThenUnsafeId}`)).public_url).toBeUndefined()
    expect(problems).toEqual([])
  })
})

describe('a dashboard never shared', () => {
  it('offers sharing without speaking of an address that no longer works', async () => {
    const { dialog, toggle, problems } = await shareDialog(boards.plain)
    expect(await toggle.isDisabled()).toBe(false)
    expect(await dialog.getByText('no longer works').count()).toBe(0)
    expect(await dialog.getByText(UNSAFE).count()).toBe(0)
    await toggle.click()
    await dialog.getByLabel('Secret address').waitFor()
    await toggle.click()
    await dialog.getByText('Public access is off: the address no longer works.').waitFor()
    expect(problems).toEqual([])
  })
})
