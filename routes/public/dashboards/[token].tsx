import { Hono, type Context } from 'hono'
import { sharedDetails, sharedIdentity, sharedMaxAge, sharedDashboard, drawDashboard } from '../../../src/dashboards/index.ts'
import { NotFound } from '../../../src/errors.ts'
import { cachingHeaders, isNotModified, validatorsFor, type Validators, contentSecurityPolicy, renderDocument, requestDateFormats } from '../../../src/http/index.ts'
import type { Env } from '../../../src/http/index.ts'
import { DEFAULT_SETTINGS } from '../../../src/settings/index.ts'
import { stateFromSearch } from '../../../src/shared/dashboard-parameters.ts'
import { PublicDashboardView } from '../../../src/ui/index.ts'

/**
 * The policy of a public page: any site may frame it (reference §0.4: `frame-ancestors *`), and its one inline script
 * is admitted by its hash rather than a nonce, so a copy a cache revalidates keeps a policy that still fits it.
 */
function publicPolicy(scriptHash: string | undefined): string {
  return contentSecurityPolicy()
    .replace("script-src 'self'", `script-src 'self'${scriptHash ? ` '${scriptHash}'` : ''}`)
    .replace("frame-ancestors 'none'", 'frame-ancestors *')
}

/** Framing allowed: the policy says who may frame (anyone), so the blanket X-Frame-Options refusal is dropped. */
function setPageHeaders(c: Context<Env>, v: Validators, maxAgeSeconds: number, policy: string | null) {
  for (const [name, value] of Object.entries(cachingHeaders(v, { maxAgeSeconds, scope: 'public' }))) c.header(name, value)
  c.header('X-Frame-Options', undefined)
  if (policy) c.header('Content-Security-Policy', policy)
}

/** Scripts-or-not decides the policy; a 304 repeats the policy of the page it confirms, so it is kept by identity. */
const policies = new Map<string, string>()

/**
 * A shared dashboard's public page (spec 2 §2 `/public/dashboards/:token`): title, parameters, filters and a read-only
 * grid, drawn on the server by the dashboard page's renderer, so it shows its data with no script. An unknown or
 * revoked token, an archived dashboard, and an organization with public URLs disabled all get the site's 404 page.
 * Caches keep it for its queries' shortest refresh interval and revalidate it by the identity of what it shows.
 */
export default new Hono<Env>()
  .get('/', async (c) => {
    const deps = c.get('deps')
    const token = c.req.param('token')!
    const shared = await sharedDashboard(deps, token).catch((error) => {
      if (error instanceof NotFound) return null
      throw error
    })
    if (!shared) throw new NotFound()
    const row = shared.dashboard
    const details = await sharedDetails(deps, shared)
    const url = new URL(c.req.url)
    const manifest = deps.assets.manifest
    const identity = sharedIdentity(details, c.get('org')?.settings ?? DEFAULT_SETTINGS, ['page', url.search, manifest.css, manifest.public?.boot ?? manifest.boot])
    const validators = validatorsFor(identity.parts, identity.lastModified)
    const maxAge = sharedMaxAge(details)
    const known = policies.get(validators.etag)
    if (known && isNotModified(c.req.raw.headers, validators)) {
      setPageHeaders(c, validators, maxAge, known)
      c.header('Content-Type', 'text/html; charset=UTF-8')
      return c.body(null, 304)
    }
    const { widgets, parameters } = await drawDashboard(deps, row, details, url.searchParams, { canViewQuery: false, reader: shared.creator }, requestDateFormats(c))
    const withParameters = widgets.some((w) => w.kind === 'chart' && w.parameters.length > 0)
    const shown = withParameters ? { ...parameters, initial: stateFromSearch(url.searchParams, parameters.dashboard, parameters.widgets) } : null
    // the page's islands on the light runtime when the build made it (scripts/build.ts)
    const scripts = manifest.public ? { ...manifest, boot: manifest.public.boot, islands: manifest.public.islands } : manifest
    const { html, scriptHash } = renderDocument(scripts, (
      <PublicDashboardView name={details.name} token={token} widgets={widgets} parameters={shown} filtersMerged={details.dashboard_filters_enabled === true} />
    ), { title: details.name, inlineScript: 'hash' })
    const policy = publicPolicy(scriptHash)
    if (policies.size > 1000) policies.clear()
    policies.set(validators.etag, policy)
    setPageHeaders(c, validators, maxAge, policy)
    c.header('Referrer-Policy', 'no-referrer')
    return c.html(html)
  })
