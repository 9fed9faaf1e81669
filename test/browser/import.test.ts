import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeOrigin } from '../fixtures/redash/handlers.ts'
import { ADMIN_KEY, buildInstance } from '../fixtures/redash/instance.ts'
import { browserSuite } from './support.ts'

/**
 * /admin/import in Chromium: an admin starts an import of a v25.8 instance (faked at the HTTP boundary in this
 * process, where the test server's worker runs) and the page follows the run live, without reloading, to its summary;
 * an import of files is listed among past runs with its report.
 */
const ORIGIN = 'http://redash-browser.test'
// the suite first: its set-up connects to the layer's Chromium over a WebSocket, which must be open before msw
// intercepts this process's requests (a connection begun under interception once never completed, the file hanging)
const suite = browserSuite({ role: 'all' })
const origin = setupServer(...fakeOrigin(ORIGIN, buildInstance('25.8.0')).handlers)
beforeAll(() => origin.listen({ onUnhandledFrame: 'bypass' }))
afterAll(() => origin.close())

describe('the import page', () => {
  it('starts an import and follows it live to the summary table', async () => {
    const { page, problems } = await suite.open('/admin/import')
    expect(await page.getByRole('link', { name: 'Import' }).getAttribute('aria-current')).toBe('page')
    await page.getByLabel('Address of the old instance').fill(ORIGIN)
    await page.getByLabel("An admin's API key on the old instance").fill(ADMIN_KEY)
    await page.getByRole('button', { name: 'Start import' }).click()
    await page.getByRole('heading', { name: `${ORIGIN}/ — Done (25.8.0)` }).waitFor()
    expect(await page.getByLabel("An admin's API key on the old instance").inputValue()).toBe('')
    const queries = page.getByRole('row', { name: /^queries/ })
    expect((await queries.getByRole('cell').allTextContents())).toEqual(['queries', '7', '0', '0', '0'])
    expect(await page.getByText('Warehouse — password (a secret the old instance does not give away)').count()).toBe(1)
    expect(await page.getByText(/placed at the lowest free place/).count()).toBe(1)
    expect(await page.locator('body').textContent()).not.toContain(ADMIN_KEY)
    expect(problems).toEqual([])
  })

  it('lists an import of files among past runs, with what it did and the files it could not use', async () => {
    const files = {
      'snippets/greet.yaml': 'trigger: greet\nsnippet: select 1\n',
      'alerts/lost.yaml': 'name: Lost\nquery: no-such-query\n',
    }
    await suite.api('POST', '/api/imports', { files })
    const { page, problems } = await suite.open('/admin/import')
    // the import from the instance is still the one followed at the top
    await page.getByRole('heading', { name: `${ORIGIN}/ — Done (25.8.0)` }).waitFor()
    const past = page.locator('details', { hasText: 'Files of a git export — Done' })
    await past.locator('summary').click()
    expect(await past.getByRole('row', { name: /^snippets/ }).getByRole('cell').allTextContents()).toEqual(['snippets', '1', '0', '0', '0'])
    expect(await past.getByText('alerts/lost.yaml: query: there is no query with the key "no-such-query"').count()).toBe(1)
    expect(problems).toEqual([])
  })
})
