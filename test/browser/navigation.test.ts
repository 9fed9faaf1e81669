import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, addUser, browserSuite, MEMBER, PHONE, signInOverHttp, type PageOptions } from './support.ts'
import { seriousA11yViolations } from './page-checks.ts'

/**
 * The app shell offers each person what their permissions allow, on a desktop and on a phone, and to the keyboard
 * (what a user of the default group is left without is checked on the server's HTML: test/pages/navigation.test.ts).
 */
const suite = browserSuite()
let member: Map<string, string>

beforeAll(async () => {
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
})

/** The home page, hydrated, signed in with `as`. */
const home = async (as: Map<string, string>, o: PageOptions = {}) => (await suite.open('/', { ...o, as })).page

/** The names of the links in a region, in order, as a screen reader would list them. */
const linkNames = (page: Page, region: ReturnType<Page['locator']>) =>
  region.getByRole('link').evaluateAll((links) => links.map((a) => [a.textContent?.trim() ?? '', a.getAttribute('href')]))

describe('desktop side navigation', () => {
  it('an admin sees every section, the Create menu, Settings at Data Sources and System Status', async () => {
    const page = await home(suite.admin)
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const [name, href] of [['Dashboards', '/dashboards'], ['Queries', '/queries'], ['Alerts', '/alerts'], ['Help', '/help']]) {
      const link = nav.getByRole('link', { name, exact: true })
      expect(await link.isVisible(), name).toBe(true)
      expect(await link.getAttribute('href')).toBe(href)
    }
    expect(await nav.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/data_sources')

    const create = nav.getByText('Create', { exact: true })
    expect(await nav.getByRole('link', { name: 'New Query' }).isVisible()).toBe(false)
    await create.click()
    expect(await nav.getByRole('link', { name: 'New Query' }).getAttribute('href')).toBe('/queries/new')
    expect(await nav.getByRole('link', { name: 'New Dashboard' }).isVisible()).toBe(true)
    expect(await nav.getByRole('link', { name: 'New Alert' }).getAttribute('href')).toBe('/alerts/new')
    // the open menu is drawn above the page, not squeezed into the navigation
    const box = (await nav.getByRole('link', { name: 'New Alert' }).boundingBox())!
    expect(box.width).toBeGreaterThan(150)

    await nav.getByLabel('Account: Ada Admin').click()
    expect(await nav.getByRole('link', { name: 'System Status' }).getAttribute('href')).toBe('/admin/status')
    expect(await nav.getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/users/me')
    expect(await nav.getByText(/^Version: \d+\.\d+\.\d+/).isVisible()).toBe(true)
  })

  it('menus close like menus: a second click, Escape, a click elsewhere, or opening another menu', async () => {
    const page = await home(suite.admin)
    const nav = page.getByRole('navigation', { name: 'Main' })
    const create = nav.getByText('Create', { exact: true })
    const newQuery = nav.getByRole('link', { name: 'New Query' })
    const logOut = nav.getByRole('button', { name: 'Log out' })

    await create.click()
    expect(await newQuery.isVisible()).toBe(true)
    await create.click()
    expect(await newQuery.isVisible()).toBe(false)

    await create.click()
    await newQuery.focus()
    await page.keyboard.press('Escape')
    expect(await newQuery.isVisible()).toBe(false)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create') // focus back on the menu button

    await create.click()
    await page.getByRole('heading', { name: 'Welcome...' }).click()
    expect(await newQuery.isVisible()).toBe(false)

    await create.click()
    await nav.getByLabel('Account: Ada Admin').click()
    expect(await logOut.isVisible()).toBe(true)
    expect(await newQuery.isVisible()).toBe(false)
  })
})

describe('phone navigation', () => {
  it('hides the side navigation and offers the same entries, plus Edit Profile, behind the menu button', async () => {
    // a session of its own, since this test signs it out
    const page = await home(await signInOverHttp(suite.server, ADMIN.email, ADMIN.password), { viewport: PHONE })
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false)
    const menu = page.getByRole('navigation', { name: 'Menu' })
    const button = menu.getByRole('button', { name: 'Menu' }).or(menu.locator('summary'))
    expect(await button.isVisible()).toBe(true)
    await button.click()
    const links = await linkNames(page, menu)
    expect(links).toEqual(expect.arrayContaining([
      ['Dashboards', '/dashboards'], ['Queries', '/queries'], ['Alerts', '/alerts'], ['New Query', '/queries/new'],
      ['New Dashboard', '/dashboards/new'], ['New Alert', '/alerts/new'], ['Help', '/help'], ['Settings', '/data_sources'],
      ['Profile', '/users/me'], ['Edit Profile', '/users/me#edit'], ['System Status', '/admin/status'],
    ]))
    // signing out is a form's button (a POST), not a link any page could point at
    expect(links.map(([, href]) => href)).not.toContain('/logout')
    const logOut = menu.getByRole('button', { name: 'Log out' })
    const box = (await logOut.boundingBox())!
    expect(box.height).toBeGreaterThanOrEqual(44) // finger-sized, like the links above it
    await logOut.click()
    await page.waitForURL(suite.server.url + '/login')
  })
})

describe('keyboard and assistive technology', () => {
  it('the first Tab on the home page reaches "Skip to content", which shows itself and jumps to the page', async () => {
    const page = await home(suite.admin)
    await page.keyboard.press('Tab')
    const focused = page.locator(':focus')
    expect(await focused.textContent()).toBe('Skip to content')
    const box = (await focused.boundingBox())!
    expect(box.width).toBeGreaterThan(40) // visible, not a 1 px screen-reader box
    await page.keyboard.press('Enter')
    // the jump is the browser's own navigation within the page: wait for it rather than read the address at once
    await page.waitForURL((url) => url.hash === '#main')
    // the next Tab continues inside the page, not back in the navigation
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true)
  })

  it('the home page has no serious accessibility problems, for an admin and a user, in light and dark', async () => {
    for (const [who, jar] of [['admin', suite.admin], ['user', member]] as const) {
      for (const dark of [false, true]) {
        const opened = await suite.open('/', { as: jar, dark })
        expect(await seriousA11yViolations(opened.page), `${who}, ${dark ? 'dark' : 'light'}`).toEqual([])
        expect(opened.problems).toEqual([])
        await suite.done(opened)
      }
    }
  }, 240_000)
})
