import path from 'node:path'
import * as esbuild from 'esbuild'
import type { Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite } from './support.ts'

/**
 * The page of one typed object (islands/lib/TypedObjectEditor.tsx) for a kind other than data sources, the way an
 * alert destination will use it: its words, addresses and flash come in as props, and it sends what the data
 * source page sends. The server is played by routes, so only the component's own behaviour is under test.
 */
const suite = browserSuite({ organization: false })
const ORIGIN = 'http://editor.test'

const schema = {
  type: 'object',
  properties: { url: { type: 'string', title: 'URL' }, secret: { type: 'string', title: 'Secret' } },
  required: ['url'],
  secret: ['secret'],
}
const destination = { id: 3, name: 'Ops hook', type: 'webhook', options: { url: 'https://hooks.example.com', secret: '--------' } }

async function mountEditor(o: { busy?: boolean; withAction?: boolean; type?: unknown } = {}) {
  const built = await esbuild.build({
    stdin: {
      contents: `
        import { createElement } from 'react'
        import { createRoot } from 'react-dom/client'
        import { TypedObjectEditor } from './islands/lib/TypedObjectEditor.tsx'
        const texts = {
          save: 'Save', saving: 'Saving…', saved: 'Saved.', failedSaving: 'Failed saving.', delete: 'Delete', deleting: 'Deleting…',
          deleteTitle: 'Delete Alert Destination', deleteConfirm: (name) => 'Delete the destination “' + name + '”?', cancel: 'Cancel',
          typeUnavailable: (type) => 'No such kind: ' + type,
        }
        const Logo = ({ type }) => createElement('img', { alt: type + ' logo' })
        window.mount = (object, type, busy, withAction) => createRoot(document.getElementById('root')).render(createElement(TypedObjectEditor, {
          object, type, texts, listPath: '/destinations', deletedFlash: 'destination_deleted', formId: 'destination-form', Logo, busy,
          actions: withAction ? (b) => createElement('button', { type: 'button', disabled: b }, 'Send Test') : undefined,
        }))`,
      resolveDir: path.resolve(import.meta.dirname, '../..'), loader: 'tsx',
    },
    bundle: true, write: false, format: 'iife', jsx: 'automatic', logLevel: 'silent',
  })
  const { page, problems, context } = await suite.newPage({ as: null })
  const sent: Request[] = []
  await page.route(`${ORIGIN}/**`, async (route) => {
    const request = route.request()
    const pathname = new URL(request.url()).pathname
    if (pathname.startsWith('/api/')) {
      sent.push(request)
      const body = request.method() === 'POST' ? { ...destination, ...request.postDataJSON() } : {}
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) })
    }
    return route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html lang="en"><title>${pathname}</title><main><div id="root"></div></main></html>` })
  })
  await page.goto(`${ORIGIN}/destinations/${destination.id}`)
  await page.addScriptTag({ content: built.outputFiles[0].text })
  await page.evaluate((args: unknown[]) => (window as unknown as { mount: (...a: unknown[]) => void }).mount(...args),
    [destination, o.type === undefined ? { name: 'Webhook', configuration_schema: schema } : o.type, o.busy, o.withAction])
  await page.getByRole('heading', { level: 1 }).waitFor()
  return { page, problems, context, sent }
}

describe('the page of one typed object, for another kind', () => {
  it('saves name, options and type to the kind\'s address, sending an untouched secret back as the mask', async () => {
    const { page, problems, sent } = await mountEditor()
    expect(await page.locator('form').getAttribute('id')).toBe('destination-form')
    expect(await page.getByLabel('Secret').inputValue()).toBe('--------')
    await page.getByLabel('Name', { exact: true }).fill('Ops hook (prod)')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('heading', { level: 1, name: 'Ops hook (prod)' }).waitFor()
    expect(sent.map((r) => [r.method(), new URL(r.url()).pathname, r.postDataJSON()])).toEqual([
      ['POST', '/api/destinations/3', { name: 'Ops hook (prod)', options: { url: 'https://hooks.example.com', secret: '--------' }, type: 'webhook' }],
    ])

    await page.getByLabel('Secret').fill('s3cret')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => sent.length).toBe(2)
    expect(sent[1].postDataJSON().options.secret).toBe('s3cret')
    expect(problems).toEqual([])
  })

  it('deletes after confirmation, then goes to the kind\'s list with its notice', async () => {
    const { page, problems, context, sent } = await mountEditor()
    // no action of the kind's own: Delete has the row to itself
    expect(await page.getByRole('button').allTextContents()).toEqual(['Save', 'Delete'])
    await page.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Alert Destination' })
    expect(await confirm.textContent()).toContain('Delete the destination “Ops hook”?')
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(`${ORIGIN}/destinations`)
    expect(sent.map((r) => [r.method(), new URL(r.url()).pathname])).toEqual([['DELETE', '/api/destinations/3']])
    const flash = (await context.cookies(`${ORIGIN}/destinations`)).find((c) => c.name === 'sightline_flash')
    expect(flash?.value).toBe('destination_deleted')
    expect(problems).toEqual([])
  })

  it('shows the kind\'s own action beside Delete, and holds Save, Delete and it while the kind is busy', async () => {
    const { page } = await mountEditor({ busy: true, withAction: true })
    for (const name of ['Save', 'Delete', 'Send Test']) expect(await page.getByRole('button', { name }).isDisabled()).toBe(true)
  })

  it('offers only Delete when this installation does not know the type', async () => {
    const { page } = await mountEditor({ type: null, withAction: true })
    expect(await page.getByRole('note').textContent()).toBe('No such kind: webhook')
    expect(await page.getByRole('button').allTextContents()).toEqual(['Delete'])
    expect(await page.locator('form').count()).toBe(0)
  })
})
