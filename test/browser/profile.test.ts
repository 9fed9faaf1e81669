import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addUser, ADMIN, browserSuite, cookieHeader, DESKTOP, fillLogin, MEMBER, PHONE, signInOverHttp, toastWith, waitForIslands, screenshot,
} from './support.ts'
import { layoutProblems, seriousA11yViolations, useScheme } from './page-checks.ts'

/**
 * Profiles, the users list and a group's members as people meet them in a real browser: the API key, a password
 * change, searching and paging users, and an admin adding and removing a member. What the server draws for each
 * person (a read-only profile, who may remove members, Disabled Users) is checked in test/pages/profile.test.ts.
 */
const suite = browserSuite()
const { open, api } = suite
let memberId: number
let analystsId: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')
const NEW_PASSWORD = 'a much newer password'

beforeAll(async () => {
  memberId = await addUser(suite.server.db, MEMBER)
  for (let i = 1; i <= 30; i++) {
    await addUser(suite.server.db, { name: `Person ${String(i).padStart(2, '0')}`, email: `person${i}@corp.test`, password: 'person-password' })
  }
  const [org] = await suite.server.db.sql<{ id: number }[]>`select id from organizations`
  ;[{ id: analystsId }] = await suite.server.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Analysts', ${['view_query', 'list_users']}) returning id`
  fs.mkdirSync(SHOTS, { recursive: true })
})

const sessionWithKey = (key: string) => fetch(suite.server.url + '/api/session', { headers: { authorization: `Key ${key}` } })
/** Console noise a failed call leaves on purpose (the browser logs every 4xx/5xx response). */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of (403|500)/.test(p))

async function errorOf(page: Page, label: string) {
  const id = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')
  return id ? page.locator(`[id="${id}"]`).textContent() : null
}

describe('one\'s own profile', () => {
  let member: Map<string, string>
  beforeAll(async () => {
    member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  })

  it('opens from the account menu and shows the API key, which copies to the clipboard', async () => {
    const { page, context, problems } = await open('/', { as: member })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url })
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByLabel(`Account: ${MEMBER.name}`).click()
    await nav.getByRole('link', { name: 'Profile' }).click()
    await page.waitForURL(suite.server.url + '/users/me')
    await waitForIslands(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(MEMBER.name)
    expect(await page.title()).toBe('Profile | Sightline')

    const key = page.getByRole('textbox', { name: 'API Key' })
    expect(await key.inputValue()).toBe(`key${memberId}${'x'.repeat(30)}`)
    expect(await key.getAttribute('readonly')).not.toBeNull()
    await page.getByRole('button', { name: 'Copy' }).click()
    await toastWith(page, 'Copied to clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`key${memberId}${'x'.repeat(30)}`)

    // groups are read-only on one's own profile
    expect(await page.getByRole('list', { name: 'Groups' }).textContent()).toBe('default')
    expect(await page.getByRole('checkbox').count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('regenerates the key after confirmation: the old key stops working', async () => {
    const { page, problems } = await open('/users/me', { as: member })
    const key = page.getByRole('textbox', { name: 'API Key' })
    const old = await key.inputValue()
    expect((await sessionWithKey(old)).status).toBe(200)

    await page.getByRole('button', { name: 'Regenerate' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Regenerate API Key' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect(await key.inputValue()).toBe(old)

    await page.getByRole('button', { name: 'Regenerate' }).click()
    await confirm.getByRole('button', { name: 'Regenerate' }).click()
    await toastWith(page, 'The API Key has been updated.').waitFor()
    await confirm.waitFor({ state: 'detached' })
    const fresh = await key.inputValue()
    expect(fresh).toMatch(/^[A-Za-z0-9]{40}$/)
    expect((await sessionWithKey(old)).status).toBe(401)
    expect((await sessionWithKey(fresh)).status).toBe(200)

    await page.route('**/api/users/*/regenerate_api_key', (route) => route.fulfill({ status: 500, body: '{"message":"boom"}', contentType: 'application/json' }))
    await page.getByRole('button', { name: 'Regenerate' }).click()
    await confirm.getByRole('button', { name: 'Regenerate' }).click()
    await toastWith(page, 'Failed regenerating API Key').waitFor()
    expect(await key.inputValue()).toBe(fresh)
    expect(unexpected(problems)).toEqual([])
  })

  it('checks the password form, shows the server\'s message for a wrong current password, then changes it', async () => {
    const { page, problems } = await open('/users/me', { as: member })
    const change = page.getByRole('button', { name: 'Change Password' })
    await change.click()
    expect(await errorOf(page, 'Current Password')).toBe('This field is required.')
    expect(await errorOf(page, 'New Password')).toBe('This field is required.')
    expect(await errorOf(page, 'Repeat New Password')).toBe('This field is required.')
    expect(await page.getByLabel('Current Password', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true)

    await page.getByLabel('Current Password', { exact: true }).fill('x') // no minimum for the current one
    await page.getByLabel('New Password', { exact: true }).fill('12345')
    await page.getByLabel('Repeat New Password').fill('12345')
    expect(await errorOf(page, 'Current Password')).toBeNull()
    expect(await errorOf(page, 'New Password')).toBe('This field is too short.')
    expect(await errorOf(page, 'Repeat New Password')).toBe('This field is too short.')
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('Repeat New Password').fill(`${NEW_PASSWORD}!`)
    expect(await errorOf(page, 'Repeat New Password')).toBe("Passwords don't match")
    await page.getByLabel('Repeat New Password').fill(NEW_PASSWORD)
    expect(await errorOf(page, 'Repeat New Password')).toBeNull()

    await page.getByLabel('Current Password', { exact: true }).fill('not my password')
    await change.click()
    await toastWith(page, 'Incorrect current password.').waitFor()
    expect(await page.getByLabel('New Password', { exact: true }).inputValue()).toBe(NEW_PASSWORD) // nothing lost

    const elsewhere = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
    await page.getByLabel('Current Password', { exact: true }).fill(MEMBER.password)
    await change.click()
    await toastWith(page, 'Saved.').waitFor()
    expect(await page.getByLabel('Current Password', { exact: true }).inputValue()).toBe('')
    // this browser stays signed in; the other session has ended
    expect((await fetch(suite.server.url + '/api/session', { headers: { cookie: cookieHeader(member) } })).status).toBe(200)
    expect((await fetch(suite.server.url + '/api/session', { headers: { cookie: cookieHeader(elsewhere) } })).status).toBe(401)
    expect(unexpected(problems)).toEqual([])

    // the new password signs in; the old one no longer does
    const { page: login } = await suite.newPage({ as: null })
    await login.goto(suite.server.url + '/login')
    await fillLogin(login, MEMBER.email, MEMBER.password)
    await login.getByText('Wrong email or password.').waitFor()
    await fillLogin(login, MEMBER.email, NEW_PASSWORD)
    await login.waitForURL(suite.server.url + '/')
  })

  it('saves name and email, requiring both', async () => {
    const { page, problems } = await open('/users/me#edit', { as: member })
    const name = page.getByLabel('Name', { exact: true })
    await name.fill('  ')
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await errorOf(page, 'Name')).toBe('This field is required.')
    await page.getByLabel('Email').fill('not an email')
    expect(await errorOf(page, 'Email')).toBe('This field must be a valid email.')
    await page.getByLabel('Email').fill(ADMIN.email)
    await name.fill('Max Maker')
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Email already taken.').waitFor()
    await page.getByLabel('Email').fill(MEMBER.email)
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Max Maker')
    await page.reload()
    await waitForIslands(page)
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Max Maker')
    await page.getByLabel('Name', { exact: true }).fill(MEMBER.name)
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    expect(unexpected(problems.filter((p) => !/status of 400/.test(p)))).toEqual([])
  })
})

describe('someone else\'s profile', () => {
  it('lets an admin change the groups', async () => {
    const { page, problems } = await open(`/users/${memberId}`)
    expect(await page.getByRole('textbox', { name: 'API Key' }).isVisible()).toBe(true) // admins see keys
    expect(await page.getByRole('button', { name: 'Change Password' }).count()).toBe(0) // only one's own
    await page.getByRole('checkbox', { name: 'Analysts' }).check()
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    const user = await api<{ groups: { name: string }[] }>('GET', `/api/users/${memberId}`)
    expect(user.groups.map((g) => g.name)).toEqual(['Analysts', 'default'])
    await page.getByRole('checkbox', { name: 'Analysts' }).uncheck()
    await page.getByRole('checkbox', { name: 'default' }).uncheck()
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await page.getByRole('group', { name: 'Groups' }).getByText('This field is required.').isVisible()).toBe(true)
    await page.getByRole('checkbox', { name: 'default' }).check()
    await page.getByRole('button', { name: 'Save' }).click()
    // the first save's toast may still be showing beside this one
    await toastWith(page, 'Saved.').first().waitFor()
    await expect.poll(async () => (await api<{ groups: { name: string }[] }>('GET', `/api/users/${memberId}`)).groups.map((g) => g.name)).toEqual(['default'])
    expect(problems).toEqual([])
  })
})

describe('a group\'s members', () => {
  const members = async () => (await api<{ name: string }[]>('GET', `/api/groups/${analystsId}/members`)).map((u) => u.name)

  it('an admin adds a member through the search dialog and removes them again', async () => {
    const { page, problems } = await open('/groups')
    await page.getByRole('link', { name: 'Members: Analysts' }).click()
    await page.waitForURL(suite.server.url + `/groups/${analystsId}`)
    await waitForIslands(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Analysts')
    await page.getByText('There are no members in this group yet.').waitFor()

    await page.getByRole('button', { name: 'Add Members' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Members' })
    const search = dialog.getByRole('searchbox', { name: 'Search users' })
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true)
    await dialog.getByRole('checkbox', { name: /Ada Admin/ }).waitFor() // everyone, by name, before any search
    await search.fill('nobody like that')
    await dialog.getByText('No user matches your search.').first().waitFor()
    await search.fill('MAX@')
    await dialog.getByRole('checkbox', { name: /Max Member/ }).check()
    expect(await dialog.getByRole('checkbox').count()).toBe(1)
    await dialog.getByRole('button', { name: 'Add', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('link', { name: /Max Member/ }).waitFor()
    expect(await members()).toEqual([MEMBER.name])

    // already a member: shown as such in the dialog
    await page.getByRole('button', { name: 'Add Members' }).click()
    await search.fill('max')
    expect(await dialog.getByRole('checkbox', { name: /Max Member/ }).isDisabled()).toBe(true)
    expect(await dialog.getByText('Already a member').isVisible()).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: `Remove ${MEMBER.name}` }).click()
    await page.getByText('There are no members in this group yet.').waitFor()
    expect(await members()).toEqual([])
    expect(problems).toEqual([])
  })

  it('says so when removing fails, and keeps the member', async () => {
    await api('POST', `/api/groups/${analystsId}/members`, { user_id: memberId })
    const { page } = await open(`/groups/${analystsId}`)
    await page.route(/\/api\/groups\/\d+\/members\/\d+$/, (route) => route.fulfill({ status: 500, body: '{"message":"boom"}', contentType: 'application/json' }))
    await page.getByRole('button', { name: `Remove ${MEMBER.name}` }).click()
    await toastWith(page, 'Failed to remove member from group.').waitFor()
    expect(await page.getByRole('link', { name: /Max Member/ }).isVisible()).toBe(true)
  })

})

describe('the users list', () => {
  const rowNames = (page: Page) => page.locator('#list-results tbody tr a span.truncate.font-medium').allTextContents()

  it('searches as you type, pages and changes the page size without errors', async () => {
    const { page, problems } = await open('/users')
    expect(await page.getByRole('heading', { name: 'Active Users' }).isVisible()).toBe(true)
    expect(await page.locator('#list-results tbody tr').count()).toBe(25)
    expect((await rowNames(page))[0]).toBe('Person 30') // newest first
    expect(await page.getByText('Page 1 of 2').isVisible()).toBe(true)

    const search = page.getByRole('searchbox', { name: 'Search users' })
    await search.pressSequentially('person 1', { delay: 20 })
    await page.waitForURL(/\/users\?q=person\+1$/)
    await expect.poll(() => rowNames(page)).toEqual(['Person 19', 'Person 18', 'Person 17', 'Person 16', 'Person 15', 'Person 14', 'Person 13', 'Person 12', 'Person 11', 'Person 10'])
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true) // still typing
    await search.fill('zzz')
    await page.getByText('No user matches your search.').waitFor()
    await search.fill('')
    await expect.poll(() => page.locator('#list-results tbody tr').count()).toBe(25)

    await page.getByRole('link', { name: 'Next' }).click()
    await page.waitForURL(/\/users\?page=2$/)
    expect(await page.locator('#list-results tbody tr').count()).toBe(7) // 32 users
    await page.getByRole('link', { name: '10', exact: true }).click()
    await page.waitForURL(/\/users\?page_size=10$/)
    expect(await page.locator('#list-results tbody tr').count()).toBe(10)
    expect(await page.getByText('Page 1 of 4').isVisible()).toBe(true)

    await page.getByRole('link', { name: 'Sort by Name' }).click()
    await page.waitForURL(/order=name/)
    expect((await rowNames(page))[0]).toBe('Ada Admin')
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toBe('Name')

    await page.getByRole('link', { name: /Person 01/ }).click()
    await page.waitForURL(/\/users\/\d+$/)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Person 01')
    expect(problems).toEqual([])
  })
})

describe('screens at desktop and phone widths', () => {
  const sizes = { desktop: DESKTOP, phone: PHONE }
  /** The page's layout and accessibility problems, in light and, with `both`, dark too (switched on the open page). */
  async function shoot(name: string, size: keyof typeof sizes, pathname: string, o: { both?: boolean; as?: Map<string, string>; before?: (page: Page) => Promise<void> } = {}) {
    const opened = await open(pathname, { viewport: sizes[size], as: o.as })
    const { page, problems } = opened
    await o.before?.(page)
    const found: string[] = []
    for (const dark of o.both ? [false, true] : [false]) {
      await useScheme(page, dark)
      await screenshot(page, { path: path.join(SHOTS, `${name}-${size}${dark ? '-dark' : ''}.png`), fullPage: true })
      found.push(...await layoutProblems(page, { scope: 'main *, [role="dialog"] *, [role="alertdialog"] *', skip: 'nav[aria-label="Settings"], nav[aria-label="Users"]' }), ...await seriousA11yViolations(page))
    }
    expect(unexpected(problems)).toEqual([])
    await suite.done(opened)
    return found
  }

  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('the profile, users and members pages fit the %s screen and pass an accessibility check', async (size) => {
    const member = await signInOverHttp(suite.server, 'person3@corp.test', 'person-password')
    const groups = await api<{ id: number; name: string }[]>('GET', '/api/groups')
    const defaultGroup = groups.find((g) => g.name === 'default')!
    expect(await shoot('profile', size, '/users/me', { both: true, as: member })).toEqual([])
    expect(await shoot('profile-admin-view', size, `/users/${memberId}`, { both: true })).toEqual([])
    expect(await shoot('profile-read-only', size, '/users/1', { both: true, as: member })).toEqual([])
    expect(await shoot('users', size, '/users', { both: true })).toEqual([])
    expect(await shoot('group-members', size, `/groups/${defaultGroup.id}`, { both: true })).toEqual([])
    expect(await shoot('profile-errors', size, '/users/me', {
      as: member,
      before: async (page) => {
        await page.getByLabel('Name', { exact: true }).fill('')
        await page.getByRole('button', { name: 'Save' }).click()
        await page.getByRole('button', { name: 'Change Password' }).click()
      },
    })).toEqual([])
    expect(await shoot('profile-regenerate', size, '/users/me', {
      as: member, before: async (page) => void await page.getByRole('button', { name: 'Regenerate' }).click().then(() => page.getByRole('alertdialog').waitFor()),
    })).toEqual([])
    expect(await shoot('group-members-add', size, `/groups/${defaultGroup.id}`, {
      before: async (page) => {
        await page.getByRole('button', { name: 'Add Members' }).click()
        await page.getByRole('dialog').getByRole('checkbox').first().waitFor()
      },
    })).toEqual([])
    await api('DELETE', `/api/groups/${analystsId}/members/${memberId}`)
    expect(await shoot('group-members-empty', size, `/groups/${analystsId}`)).toEqual([])
  }, 300_000)
})
