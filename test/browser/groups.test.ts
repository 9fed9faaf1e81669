import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { addUser, browserSuite, DESKTOP, jobEnd, MEMBER, PHONE, settled, signInOverHttp, toastWith, waitForIslands, warehouseOptions } from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * The groups pages in a real browser, with a worker running executions: an admin builds a group that gives a data
 * source View Only and its member reads results without running new SQL; New Group, rename in the heading, Delete
 * from the list and from the group's page, each with its confirmation and notice. Built-in groups' plain headings
 * and what a member is not offered are checked on the server's HTML (test/pages/groups.test.ts).
 */
const suite = browserSuite({ role: 'all' }) // role 'all': the web process also runs a worker, so executions finish
const { open, api, call } = suite
let warehouse: number
let memberJar: Map<string, string>
let builtin: { admin: number; default: number }

type Group = { id: number; name: string; type: string }
type GroupSource = { id: number; name: string; view_only: boolean }

const groups = () => api<Group[]>('GET', '/api/groups')
const cell = (page: Page, text: string) => page.locator('[data-results-grid] [role="cell"]', { hasText: text }).first()

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const all = await groups()
  builtin = { admin: all.find((g) => g.name === 'admin')!.id, default: all.find((g) => g.name === 'default')!.id }
  // a new source is in the default group with full access: take it out, so the group built below is the member's only way to it
  await api('DELETE', `/api/groups/${builtin.default}/data_sources/${warehouse}`)
  await addUser(suite.server.db, MEMBER)
  memberJar = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
}, 60_000)

/** A regular group made through the API, for the tests that are not about creating one. */
const newGroup = (name: string) => api<Group>('POST', '/api/groups', { name })

describe('a group giving View Only', () => {
  it('an admin builds it from New Group; its member reads a saved result but cannot run new SQL', async () => {
    const query = await api<{ id: number }>('POST', '/api/queries', { data_source_id: warehouse, name: 'Greetings', query: "select 'hello from the warehouse' as greeting" })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    // before the group, the member has no way to the source at all
    expect((await call('GET', `/api/queries/${query.id}`, undefined, memberJar)).status).toBe(404)

    const { page, problems } = await open('/groups')
    await page.getByRole('button', { name: 'New Group' }).click()
    const dialog = page.getByRole('dialog', { name: 'New Group' })
    const create = dialog.getByRole('button', { name: 'Create' })
    expect(await create.isDisabled()).toBe(true) // the name is required
    await dialog.getByLabel('Name').fill('   ')
    expect(await create.isDisabled()).toBe(true)
    await dialog.getByLabel('Name').fill('Readers')
    await create.click()
    await page.waitForURL(/\/groups\/\d+$/)
    const groupId = Number(new URL(page.url()).pathname.split('/')[2])
    await waitForIslands(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Readers')
    await page.getByText('There are no members in this group yet.').waitFor()

    await page.getByRole('button', { name: 'Add Members' }).click()
    const members = page.getByRole('dialog', { name: 'Add Members' })
    await members.getByRole('searchbox').fill('max')
    await members.getByRole('checkbox', { name: /Max Member/ }).check()
    await members.getByRole('button', { name: 'Add', exact: true }).click()
    await members.waitFor({ state: 'detached' })
    await page.getByRole('link', { name: /Max Member/ }).waitFor()

    await page.getByRole('navigation', { name: 'Group: Readers' }).getByRole('link', { name: 'Data Sources' }).click()
    await page.waitForURL(suite.server.url + `/groups/${groupId}/data_sources`)
    await waitForIslands(page)
    await page.getByRole('button', { name: 'Add Data Sources' }).click()
    const sources = page.getByRole('dialog', { name: 'Add Data Sources' })
    await sources.getByLabel('Warehouse').check()
    await sources.getByRole('button', { name: 'Add', exact: true }).click()
    await sources.waitFor({ state: 'detached' })
    await page.getByLabel('Permission for Warehouse').selectOption({ label: 'View Only' })
    await expect.poll(async () => (await api<GroupSource[]>('GET', `/api/groups/${groupId}/data_sources`)).map((d) => [d.name, d.view_only]))
      .toEqual([['Warehouse', true]])
    expect(problems).toEqual([])

    // the member opens the saved query and reads its stored result (a saved query without parameters is safe, so
    // its own text may still be refreshed, as in the established tool; new text may not)
    const reader = await open(`/queries/${query.id}`, { as: memberJar })
    await cell(reader.page, 'hello from the warehouse').waitFor()
    // in the editor, Execute is refused
    const editor = await open(`/queries/${query.id}/source`, { as: memberJar })
    expect(await editor.page.getByRole('button', { name: 'Execute' }).isDisabled()).toBe(true)
    expect([...reader.problems, ...editor.problems]).toEqual([])

    // and the server refuses new query text on the source, whatever the page offers
    const ad = await call<{ message: string }>('POST', '/api/query_results', { data_source_id: warehouse, query: 'select 2', max_age: 0 }, memberJar)
    expect(ad.status).toBe(403)
    expect((await call('POST', '/api/queries', { data_source_id: warehouse, name: 'Mine', query: 'select 3' }, memberJar)).status).toBe(403)
  })
})

describe('New Group', () => {
  it('shows the server\'s refusal in the dialog and stays open', async () => {
    await newGroup('Taken')
    const { page } = await open('/groups')
    await page.getByRole('button', { name: 'New Group' }).click()
    const dialog = page.getByRole('dialog', { name: 'New Group' })
    await dialog.getByLabel('Name').fill('Taken')
    await dialog.getByLabel('Name').press('Enter')
    expect(await dialog.getByRole('alert').textContent()).toBe('A group with this name already exists.')
    expect(new URL(page.url()).pathname).toBe('/groups')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
  })
})

describe('the group name heading', () => {
  it('renames on Enter and on leaving the field; Escape cancels; a blank name is ignored', async () => {
    const group = await newGroup('Analysts')
    const current = async () => (await api<Group>('GET', `/api/groups/${group.id}`)).name
    const { page, problems } = await open(`/groups/${group.id}`)
    const heading = page.getByRole('heading', { level: 1 })
    const field = page.getByLabel('Group name')

    await heading.click()
    await field.fill('Data Analysts')
    await field.press('Enter')
    await toastWith(page, 'Saved.').waitFor()
    expect(await heading.textContent()).toBe('Data Analysts')
    expect(await current()).toBe('Data Analysts')
    // the keyboard's way in, and the focus comes back to it
    expect(await page.getByRole('button', { name: 'Rename group' }).evaluate((el) => el === document.activeElement)).toBe(true)

    await page.getByRole('button', { name: 'Rename group' }).click()
    await field.fill('Never saved')
    await field.press('Escape')
    await heading.waitFor()
    expect(await heading.textContent()).toBe('Data Analysts')

    await heading.click()
    await field.fill('  ')
    await page.getByRole('link', { name: 'Members', exact: true }).focus() // leaving the field saves, but blank is nothing
    await heading.waitFor()
    expect(await heading.textContent()).toBe('Data Analysts')

    await heading.click()
    await field.fill('Analytics')
    await page.getByRole('link', { name: 'Members', exact: true }).focus()
    await expect.poll(current).toBe('Analytics')
    expect(await heading.textContent()).toBe('Analytics')
    await settled(page)
    expect(await current()).toBe('Analytics') // Escape and blank asked for nothing
    expect(problems).toEqual([])
  })
})

describe('deleting a group', () => {
  it('from the list, after a confirmation, with the notice; built-in groups offer no Delete', async () => {
    const group = await newGroup('Short-lived')
    const { page, problems } = await open('/groups')
    expect(await page.getByRole('button', { name: 'Delete admin' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Delete default' }).count()).toBe(0)

    await page.getByRole('button', { name: 'Delete Short-lived' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Group' })
    expect(await confirm.textContent()).toContain('“Short-lived”')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect((await groups()).some((g) => g.id === group.id)).toBe(true)

    await page.getByRole('button', { name: 'Delete Short-lived' }).click()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await toastWith(page, 'Group deleted successfully.').waitFor()
    await page.getByRole('link', { name: 'Short-lived', exact: true }).waitFor({ state: 'detached' })
    expect((await groups()).some((g) => g.id === group.id)).toBe(false)
    expect(problems).toEqual([])
  })

  it('from the list, shows the server\'s message when it fails, and keeps the group', async () => {
    await newGroup('Sticky')
    const { page } = await open('/groups')
    await page.route(/\/api\/groups\/\d+$/, (route) => route.fulfill({ status: 400, body: '{"message":"Cannot delete built-in group"}', contentType: 'application/json' }))
    await page.getByRole('button', { name: 'Delete Sticky' }).click()
    await page.getByRole('alertdialog', { name: 'Delete Group' }).getByRole('button', { name: 'Delete', exact: true }).click()
    const failed = toastWith(page, 'Cannot delete built-in group')
    await failed.waitFor()
    expect(await failed.getAttribute('data-toast')).toBe('error')
    expect(await page.getByRole('link', { name: 'Sticky', exact: true }).isVisible()).toBe(true)
  })

  it('from its own page, then back to the list, which says so once', async () => {
    const group = await newGroup('Temporary')
    const { page, problems } = await open(`/groups/${group.id}`)
    await page.getByRole('button', { name: 'Delete Group' }).click()
    await page.getByRole('alertdialog', { name: 'Delete Group' }).getByRole('button', { name: 'Delete', exact: true }).click()
    await page.waitForURL(suite.server.url + '/groups')
    expect(await page.getByRole('status').filter({ hasText: 'Group deleted successfully.' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Temporary', exact: true }).count()).toBe(0)
    await page.reload()
    expect(await page.getByText('Group deleted successfully.').count()).toBe(0)
    expect((await groups()).some((g) => g.id === group.id)).toBe(false)
    expect(problems).toEqual([])
  })
})

describe('at desktop and phone widths, light and dark', () => {
  /** What a user would notice on the page as it is now: broken layout, serious accessibility violations. */
  const checks = async (page: Page) => [
    ...await layoutProblems(page, { scope: 'main *, [role="dialog"] *, [role="alertdialog"] *', skip: 'nav[aria-label="Settings"]' }),
    ...await seriousA11yViolations(page),
  ]

  it.each([['desktop', DESKTOP], ['phone', PHONE]] as const)('the list, its dialogs and the editable heading pass on the %s', async (_, viewport) => {
    const group = await newGroup(`Checked on ${viewport.width}`)
    for (const dark of [false, true]) {
      const list = await open('/groups', { viewport, dark })
      expect(await checks(list.page)).toEqual([])
      await list.page.getByRole('button', { name: 'New Group' }).click()
      await list.page.getByRole('dialog', { name: 'New Group' }).getByLabel('Name').fill('A name')
      expect(await checks(list.page)).toEqual([])
      await list.page.keyboard.press('Escape')
      await list.page.getByRole('button', { name: `Delete ${group.name}` }).click()
      await list.page.getByRole('alertdialog', { name: 'Delete Group' }).waitFor()
      expect(await checks(list.page)).toEqual([])

      const own = await open(`/groups/${group.id}`, { viewport, dark })
      expect(await checks(own.page)).toEqual([])
      await own.page.getByRole('button', { name: 'Rename group' }).click()
      await own.page.getByLabel('Group name').waitFor()
      expect(await checks(own.page)).toEqual([])
      expect([...list.problems, ...own.problems]).toEqual([])
      await Promise.all([suite.done(list), suite.done(own)])
    }
  }, 120_000)
})
