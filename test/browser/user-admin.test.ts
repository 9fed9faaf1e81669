import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addUser, browserSuite, cookieHeader, fillLogin, MEMBER, orgSettings, PAGE_TIMEOUT, signInOverHttp, toastWith, waitForIslands,
} from './support.ts'
import { seriousA11yViolations } from './page-checks.ts'

/**
 * An admin managing accounts in a real browser, with no mail server configured: inviting through the New User
 * dialog and the invitee accepting; disabling someone who is signed in elsewhere, and enabling them again; resending
 * an invitation, a password reset and deleting a pending invitation, each link shown to hand over.
 */
const suite = browserSuite()
const { open, api } = suite

beforeAll(async () => {
  await addUser(suite.server.db, MEMBER)
})

/** Refusals a test provokes on purpose show in the console as failed loads; nothing else may. */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of (400|403|500)/.test(p))
const errorOf = async (page: Page, label: string) => {
  const id = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')
  return id ? page.locator(`[id="${id}"]`).textContent() : null
}
const invite = (name: string, email: string) => api<{ id: number; invite_link: string }>('POST', '/api/users', { name, email })

describe('the New User dialog', () => {
  it('invites a colleague, who opens the link, sets a password, is signed in, and signs in again later', async () => {
    const { page, context, problems } = await open('/users')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url })
    await page.getByRole('link', { name: 'New User' }).click()
    await page.waitForURL(suite.server.url + '/users/new')
    await waitForIslands(page)
    const dialog = page.getByRole('dialog', { name: 'Create a New User' })
    await dialog.waitFor()
    expect(await page.getByLabel('Name', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await seriousA11yViolations(page)).toEqual([])

    // spec 3 §5: both fields required, the email checked
    await dialog.getByRole('button', { name: 'Create' }).click()
    expect(await errorOf(page, 'Name')).toBe('This field is required.')
    expect(await errorOf(page, 'Email')).toBe('This field is required.')
    expect(await page.getByLabel('Name', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true)
    await page.getByLabel('Name', { exact: true }).fill('Nina New')
    await page.getByLabel('Email').fill('nina@')
    expect(await errorOf(page, 'Name')).toBeNull()
    expect(await errorOf(page, 'Email')).toBe('This field must be a valid email.')

    // a refusal shows in an alert inside the dialog: the server's message, else 'Failed saving.'
    await page.getByLabel('Email').fill(MEMBER.email)
    await dialog.getByRole('button', { name: 'Create' }).click()
    expect(await dialog.getByRole('alert').textContent()).toBe('Email already taken.')
    await page.route('**/api/users', (route) => route.fulfill({ status: 500, body: '', contentType: 'application/json' }), { times: 1 })
    await page.getByLabel('Email').fill('NINA@example.com')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await dialog.getByRole('alert').filter({ hasText: 'Failed saving.' }).waitFor()

    await dialog.getByRole('button', { name: 'Create' }).click()
    const notice = dialog.getByRole('alert')
    await notice.getByText('Email not sent!').waitFor()
    expect(await notice.textContent()).toContain('The mail server is not configured.')
    const link = await notice.getByRole('textbox', { name: 'Link' }).inputValue()
    expect(link).toMatch(new RegExp(`^${suite.server.url}/invite/[\\w-]+\\.[\\w-]+$`))
    await notice.getByRole('button', { name: 'Copy Link' }).click()
    await toastWith(page, 'Copied to clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)

    // closing after the invitation shows the pending invitations, the new one among them
    await dialog.getByRole('button', { name: 'Close' }).last().click()
    await page.waitForURL(suite.server.url + '/users/pending')
    await page.getByRole('link', { name: /Nina New/ }).waitFor()
    expect(unexpected(problems)).toEqual([])

    // the profile's two fields and words (spec 3 §5)
    const { page: invitee } = await suite.newPage({ as: null })
    await invitee.goto(link)
    await invitee.getByLabel('New Password', { exact: true }).fill('nina')
    await invitee.getByRole('button', { name: 'Set Password' }).click()
    await invitee.getByText('This field is too short.').waitFor()
    expect(await errorOf(invitee, 'New Password')).toBe('This field is too short.')
    expect(await errorOf(invitee, 'Repeat New Password')).toBe('This field is required.')
    await invitee.getByLabel('New Password', { exact: true }).fill('nina password')
    await invitee.getByLabel('Repeat New Password', { exact: true }).fill('nina passwort')
    await invitee.getByRole('button', { name: 'Set Password' }).click()
    await invitee.getByText("Passwords don't match").waitFor()
    expect(await errorOf(invitee, 'Repeat New Password')).toBe("Passwords don't match")
    expect(await invitee.getByLabel('New Password', { exact: true }).getAttribute('aria-invalid')).toBeNull()
    expect(await seriousA11yViolations(invitee)).toEqual([])
    await invitee.getByLabel('New Password', { exact: true }).fill('nina password')
    await invitee.getByLabel('Repeat New Password', { exact: true }).fill('nina password')
    await invitee.getByRole('button', { name: 'Set Password' }).click()
    await invitee.waitForURL(suite.server.url + '/')
    const nav = invitee.getByRole('navigation', { name: 'Main' })
    await nav.getByLabel('Account: Nina New').click()
    await nav.getByRole('button', { name: 'Log out' }).click()
    await invitee.waitForURL(suite.server.url + '/login')
    await fillLogin(invitee, 'nina@example.com', 'nina password')
    await invitee.waitForURL(suite.server.url + '/')
    await nav.getByLabel('Account: Nina New').waitFor()
  })

  it('says the invitation was sent when mail is configured', async () => {
    const { page } = await open('/users/new')
    await page.route('**/api/users', (route) => route.fulfill({
      status: 200, contentType: 'application/json', body: JSON.stringify({ id: 9999, name: 'Mo Mailed', email: 'mo@example.com' }),
    }))
    await page.getByLabel('Name', { exact: true }).fill('Mo Mailed')
    await page.getByLabel('Email').fill('mo@example.com')
    await page.getByRole('button', { name: 'Create' }).click()
    await page.getByRole('dialog').getByText('An invitation has been sent to mo@example.com.').waitFor()
  })

  it('goes back to the list when dismissed', async () => {
    const { page } = await open('/users/new')
    await page.getByRole('dialog', { name: 'Create a New User' }).waitFor()
    await page.keyboard.press('Escape')
    await page.waitForURL(suite.server.url + '/users')
  })

})

describe('disabling and enabling', () => {
  it('refuses a signed-in user at once when disabled, and lets them sign in again once enabled', async () => {
    const id = await addUser(suite.server.db, { name: 'Dora Doomed', email: 'dora@example.com', password: 'dora password' })
    const dora = await signInOverHttp(suite.server, 'dora@example.com', 'dora password')
    const { page: doraPage } = await open('/queries', { as: dora })
    const session = () => fetch(suite.server.url + '/api/session', { headers: { cookie: cookieHeader(dora) } })
    expect((await session()).status).toBe(200)

    const { page, problems } = await open(`/users/${id}`)
    expect(await page.getByRole('button', { name: 'Send Password Reset Email' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Disable' }).click()
    await page.getByRole('status').filter({ hasText: 'User Dora Doomed is now disabled.' }).waitFor()
    await waitForIslands(page)
    // a disabled user's profile is read-only, with Enable as the one thing to do
    expect(await page.getByText('This user is disabled. Their profile cannot be changed.').isVisible()).toBe(true)
    expect(await page.getByRole('textbox').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Send Password Reset Email' }).count()).toBe(0)

    expect((await session()).status).toBe(401)
    await doraPage.reload()
    expect(new URL(doraPage.url()).pathname).toBe('/login')
    await fillLogin(doraPage, 'dora@example.com', 'dora password')
    await doraPage.getByText('Wrong email or password.').waitFor()
    expect(new URL(doraPage.url()).pathname).toBe('/login')

    await page.getByRole('button', { name: 'Enable' }).click()
    await page.getByRole('status').filter({ hasText: 'User Dora Doomed is now enabled.' }).waitFor()
    await waitForIslands(page)
    expect(await page.getByRole('button', { name: 'Disable' }).isVisible()).toBe(true)
    await fillLogin(doraPage, 'dora@example.com', 'dora password')
    await doraPage.waitForURL(suite.server.url + '/queries')
    expect(unexpected(problems)).toEqual([])
  })

  it('says why when disabling fails: the server\'s message, else the status text', async () => {
    const { id } = await invite('Fay Failing', 'fay@example.com')
    const { page } = await open(`/users/${id}`)
    await page.route(`**/api/users/${id}/disable`, (route) => route.fulfill({ status: 403, contentType: 'application/json', body: '{"message":"Not today."}' }), { times: 1 })
    await page.getByRole('button', { name: 'Disable' }).click()
    await toastWith(page, 'Cannot disable user: Not today.').waitFor()
    await page.route(`**/api/users/${id}/disable`, (route) => route.fulfill({ status: 500, body: '' }), { times: 1 })
    await page.getByRole('button', { name: 'Disable' }).click()
    await toastWith(page, 'Cannot disable user: Internal Server Error').waitFor()
    expect(await page.getByRole('button', { name: 'Disable' }).isEnabled()).toBe(true)
  })

})

describe('invitation and reset links, deleting an invitation', () => {
  it('shows a new invitation link to hand over, and a password reset link', async () => {
    const { id, invite_link: first } = await invite('Rita Resent', 'rita@example.com')
    const { page, problems } = await open(`/users/${id}`)
    await page.getByRole('button', { name: 'Resend Invitation' }).click()
    const notice = page.getByRole('alert').filter({ hasText: 'Email not sent!' })
    await notice.waitFor()
    expect(await notice.textContent()).toContain('The mail server is not configured.')
    expect(await notice.textContent()).toContain('Send this invitation link to Rita Resent')
    const second = await notice.getByRole('textbox', { name: 'Link' }).inputValue()
    expect(second).toMatch(/\/invite\//)
    expect(second).not.toBe(first)
    expect(await seriousA11yViolations(page)).toEqual([])
    expect((await fetch(second)).status).toBe(200)
    expect((await fetch(first)).status).toBe(400) // the previous link stopped working

    await page.route(`**/api/users/${id}/invite`, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }), { times: 1 })
    await page.getByRole('button', { name: 'Resend Invitation' }).click()
    await toastWith(page, 'Failed to resend invitation: boom').waitFor()
    await page.route(`**/api/users/${id}/invite`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }), { times: 1 })
    await page.getByRole('button', { name: 'Resend Invitation' }).click()
    await toastWith(page, 'Invitation sent.').waitFor()

    const active = await addUser(suite.server.db, { name: 'Rex Reset', email: 'rex@example.com', password: 'rex password' })
    await page.goto(suite.server.url + `/users/${active}`)
    await waitForIslands(page)
    await page.getByRole('button', { name: 'Send Password Reset Email' }).click()
    const reset = page.getByRole('alert').filter({ hasText: 'Email not sent!' })
    await reset.getByText('Send this password reset link to Rex Reset', { exact: false }).waitFor()
    expect(await reset.getByRole('textbox', { name: 'Link' }).inputValue()).toMatch(/\/reset\//)
    await page.route(`**/api/users/${active}/reset_password`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }), { times: 1 })
    await page.getByRole('button', { name: 'Send Password Reset Email' }).click()
    await toastWith(page, 'Password reset email sent.').waitFor()
    await page.route(`**/api/users/${active}/reset_password`, (route) => route.fulfill({ status: 404, body: '' }), { times: 1 })
    await page.getByRole('button', { name: 'Send Password Reset Email' }).click()
    await toastWith(page, 'Failed to send password reset email: Not Found').waitFor()
    expect(unexpected(problems.filter((p) => !/status of 404/.test(p)))).toEqual([])
  })

  it('while Sightline does not know its address: a banner asks for it, and a link is completed with the browser\'s own address', async () => {
    // as an install made before setup asked for the address
    const [org] = await suite.server.db.sql<{ id: number }[]>`update organizations set settings = settings - 'base_url' returning id`
    await suite.server.db.sql`select pg_notify('sightline_cache', ${`org:${org.id}`})`
    // the server drops its cached settings on that notification: wait until it has
    const deadline = Date.now() + PAGE_TIMEOUT
    while ((await orgSettings(suite.server, suite.admin)).base_url !== '') {
      if (Date.now() > deadline) throw new Error('the server still had the address')
      await new Promise((r) => setTimeout(r, 20))
    }
    try {
      const { id, invite_link: answered } = await invite('Olga Originless', 'olga@example.com')
      expect(answered).toMatch(/^\/invite\//)
      const { page, problems } = await open(`/users/${id}`)
      const banner = page.locator('[data-origin-banner]')
      expect(await banner.textContent()).toContain('Sightline does not know its own address yet')
      expect(await banner.getByRole('link').getAttribute('href')).toBe('/settings/general#org-base-url')
      await page.getByRole('button', { name: 'Resend Invitation' }).click()
      const notice = page.getByRole('alert').filter({ hasText: 'Email not sent!' })
      await notice.waitFor()
      expect(await notice.textContent()).toContain('Sightline does not know its own address yet')
      const link = await notice.getByRole('textbox', { name: 'Link' }).inputValue()
      expect(link).toMatch(new RegExp(`^${suite.server.url.replace(/[./]/g, '\\$&')}/invite/`))
      expect((await fetch(link)).status).toBe(200)
      expect(unexpected(problems)).toEqual([])
    } finally {
      await api('POST', '/api/settings/organization', { base_url: suite.server.url })
    }
  })

  it('deletes a pending invitation after confirmation, which leaves the pending list', async () => {
    const { id } = await invite('Pete Pending', 'pete@example.com')
    const { page, problems } = await open(`/users/${id}`)
    await page.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete User' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect((await suite.call('GET', `/api/users/${id}`)).status).toBe(200)

    await page.getByRole('button', { name: 'Delete' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(suite.server.url + '/users/pending')
    await page.getByRole('status').filter({ hasText: 'The invitation has been deleted.' }).waitFor()
    expect(await page.getByRole('link', { name: /Pete Pending/ }).count()).toBe(0)
    expect((await suite.call('GET', `/api/users/${id}`)).status).toBe(404)
    expect(unexpected(problems)).toEqual([])
  })
})
