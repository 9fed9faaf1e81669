import type { Browser, BrowserContext, Page } from 'playwright-core'

/**
 * Browser contexts a test file hands out again once a test is done with them. Opening a context and its first page
 * starts a renderer process: on a two-core machine about 1.4 s of CPU, half the cost of opening a Sightline page and
 * most of the browser layer's time. A context handed back is put to the state of a new one before its next test (no
 * cookies, no storage, no routes, no permissions, online, on about:blank, no listeners), so a test still starts from
 * a blank browser; its page keeps its renderer and its cache of compiled scripts. A context a test changed in a way
 * that cannot be undone (a fake clock, init scripts, exposed functions, extra headers) is closed instead.
 */
export class PagePool {
  private readonly idle: Pooled[] = []
  private readonly lent: Pooled[] = []

  constructor(private readonly browser: () => Browser, private readonly origin: () => string) {}

  /** A blank context and its page, with script or without, at the viewport and in the colour scheme asked for. */
  async take(o: { script: boolean; viewport: { width: number; height: number }; dark?: boolean; timeout: number }): Promise<{ context: BrowserContext; page: Page }> {
    const found = this.idle.findIndex((p) => p.script === o.script)
    const pooled = found >= 0 ? this.idle.splice(found, 1)[0] : await this.open(o.script)
    this.lent.push(pooled)
    const { context, page } = pooled
    await Promise.all([page.setViewportSize(o.viewport), page.emulateMedia({ colorScheme: o.dark ? 'dark' : 'light' })])
    context.setDefaultTimeout(o.timeout)
    context.setDefaultNavigationTimeout(o.timeout)
    return pooled
  }

  /** After a test: every context it was lent is made blank again, or closed when it cannot be. */
  async giveBack() {
    await Promise.all(this.lent.splice(0).map((pooled) => this.returned(pooled)))
  }

  /** One context a test is done with before its end, so that its next page can be opened in it. */
  async release(context: BrowserContext) {
    const at = this.lent.findIndex((p) => p.context === context)
    if (at >= 0) await this.returned(this.lent.splice(at, 1)[0])
  }

  async close() {
    await Promise.all([...this.idle.splice(0), ...this.lent.splice(0)].map((p) => p.context.close().catch(() => {})))
  }

  private async open(script: boolean): Promise<Pooled> {
    const context = await this.browser().newContext({ javaScriptEnabled: script })
    const page = await context.newPage()
    const pooled: Pooled = { context, page, script, tainted: false }
    const taint = <T extends object>(target: T, names: (keyof T)[]) => {
      for (const name of names) {
        const original = target[name] as (...args: unknown[]) => unknown
        target[name] = ((...args: unknown[]) => ((pooled.tainted = true), original.apply(target, args))) as T[keyof T]
      }
    }
    taint(context, ['addInitScript', 'exposeBinding', 'exposeFunction', 'setExtraHTTPHeaders', 'setGeolocation', 'setHTTPCredentials'])
    taint(page, ['addInitScript', 'exposeBinding', 'exposeFunction', 'setExtraHTTPHeaders'])
    taint(context.clock, ['install', 'pauseAt', 'setFixedTime', 'setSystemTime', 'fastForward', 'runFor', 'resume'])
    return pooled
  }

  private async returned(pooled: Pooled) {
    if (!pooled.tainted && (await this.blank(pooled).then(() => true, () => false))) this.idle.push(pooled)
    else await pooled.context.close().catch(() => {})
  }

  private async blank({ context, page, script }: Pooled) {
    await Promise.all(context.pages().filter((p) => p !== page).map((p) => p.close()))
    page.removeAllListeners()
    if (script && page.url().startsWith(this.origin())) {
      await page.evaluate(() => { localStorage.clear(); sessionStorage.clear() }).catch(() => {})
    }
    await Promise.all([page.unrouteAll({ behavior: 'ignoreErrors' }), context.unrouteAll({ behavior: 'ignoreErrors' })])
    await Promise.all([context.clearCookies(), context.clearPermissions(), context.setOffline(false)])
    await page.goto('about:blank')
  }
}

interface Pooled {
  context: BrowserContext
  page: Page
  script: boolean
  /** Changed by its test in a way `blank` cannot undo. */
  tainted: boolean
}
