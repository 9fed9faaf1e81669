import { Hono, type Context } from 'hono'
import { NotFound, Unauthorized } from '../../../../../src/errors.ts'
import { cachingHeaders, isNotModified, notModified, validatorsFor, requestDateFormats, apiKeyFrom, allowFraming, renderDocument, cacheScope, idParam } from '../../../../../src/http/index.ts'
import type { Env } from '../../../../../src/http/index.ts'
import { drawEmbed, dropdownChoices, embedCaller, embedFlags, embedResult, openEmbed, refreshSeconds, type EmbedFilter, type EmbedResult, type OpenedEmbed } from '../../../../../src/queries/index.ts'
import { embedTexts as t } from '../../../../../src/shared/embed-texts.ts'
import { EmbedPage, type EmbedBody } from '../../../../../src/ui/index.ts'

/** The address's key and switches, which the parameters' form and the reload of a run in progress carry over. */
const KEPT = ['api_key', 'hide_header', 'hide_parameters', 'hide_link', 'hide_timestamp', 'showDescription']

/** Seconds between reloads of a page whose run is still going (a meta refresh: it needs no script). */
const RELOAD_SECONDS = 2

/** The page as an HTML answer any site may frame, with the caching rule given (none for a page still changing). */
function framed(c: Context<Env>, html: string, status: number, headers: Record<string, string>): Response {
  const res = c.html(html, status as 200)
  allowFraming(res.headers)
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value)
  return res
}

/** What the page shows in the visualization's place, and the result's filters with the choice it is drawn with. */
async function bodyOf(c: Context<Env>, e: OpenedEmbed, outcome: EmbedResult | null, search: URLSearchParams): Promise<EmbedBody & { filters?: EmbedFilter[] }> {
  if (!e.visualization) return { kind: 'error', text: t.missingVisualization }
  if (e.refused) return { kind: 'error', text: t.unsafe }
  if (!outcome) return { kind: 'pending' }
  if ('error' in outcome) return { kind: 'error', text: t.error(outcome.error) }
  if ('pending' in outcome) return { kind: 'pending' }
  const drawing = await drawEmbed(c.get('deps'), e.visualization, outcome.result, search, requestDateFormats(c))
  return 'html' in drawing ? { kind: 'drawing', html: drawing.html, filters: drawing.filters } : { kind: 'note', text: drawing.note === 'too-large' ? t.tooLarge : t.cannotDraw }
}

/**
 * The embed page (spec 2 §2, reference §0 "embed"): `/embed/query/{id}/visualization/{vid}?api_key=…`, drawn whole on
 * the server and framable by any site. The key is the query's own, or a user's who may see the query (a signed-in
 * browser needs none); without one, sign in; with a wrong or revoked one, 404 alike. A shown result answers with
 * validators from its identity, so a revalidation is a 304 without drawing; `?job=` follows a run still going.
 */
export default new Hono<Env>().get('/', async (c) => {
  const deps = c.get('deps')
  const queryId = idParam(c.req.param('id'), NotFound)
  const visualizationId = idParam(c.req.param('vid'), NotFound)
  const key = apiKeyFrom(c.req.query('api_key'), c.req.header('authorization'))
  const principal = c.get('principal')
  if (!key && !principal) throw new Unauthorized()
  const { caller, query } = await embedCaller(deps, queryId, key, principal)
  const search = new URL(c.req.url).searchParams
  const flags = embedFlags(search)
  const e = await openEmbed(deps, query, visualizationId, search)
  const outcome = e.visualization && !e.refused ? await embedResult(deps, caller, e, search.get('job') ?? undefined) : null

  const result = outcome && 'result' in outcome ? outcome.result : null
  const keep = KEPT.flatMap((name) => search.getAll(name).map((value) => [name, value] as [string, string]))
  let headers: Record<string, string> = { 'Cache-Control': 'no-store' }
  if (result && e.visualization) {
    // the answer is this result drawn by this visualization for this address (its values, switches and key)
    const address = [...search].filter(([name]) => name !== 'job').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const formats = requestDateFormats(c)
    const parts = ['embed', query.id, query.version, e.visualization.id, e.visualization.updated_at.getTime(), result.id, JSON.stringify(address), 'queryKey' in caller ? 'key' : `user:${caller.principal.id}`, formats.date, formats.time]
    const changed = Math.max(result.retrieved_at.getTime(), query.updated_at.getTime(), e.visualization.updated_at.getTime())
    const v = validatorsFor(parts, new Date(changed))
    const o = { maxAgeSeconds: refreshSeconds(query), scope: cacheScope(c) }
    if (isNotModified(c.req.raw.headers, v)) {
      const res = notModified(v, o)
      res.headers.set('Content-Type', 'text/html; charset=UTF-8') // the page's headers, so the middleware keeps them
      allowFraming(res.headers)
      return res
    }
    headers = cachingHeaders(v, o)
  }

  const { filters = [], ...body } = await bodyOf(c, e, outcome, search)
  const pending = outcome !== null && 'pending' in outcome
  const showParameters = e.definitions.length > 0 && !flags.hideParameters && !e.refused && !!e.visualization
  // the form's fields replace their keys in the address; every other key (switches, the key, hidden values) goes along
  const fields = new Set([
    ...(showParameters ? e.definitions.flatMap((d) => [`p_${d.name}`, `p_${d.name}.start`, `p_${d.name}.end`]) : []),
    ...filters.map((f) => f.name), 'job',
  ])
  const carried = [...search].filter(([name]) => !fields.has(name))
  const keyInAddress = c.req.query('api_key')
  const page = (
    <EmbedPage query={{ name: query.name, description: query.description ?? '' }} visualizationName={e.visualization?.name ?? null}
      showHeader={!flags.hideHeader} showDescription={flags.showDescription} body={body}
      form={showParameters || filters.length ? {
        parameters: showParameters ? { definitions: e.definitions, values: e.values, dropdowns: await dropdownChoices(deps, caller, e) } : null,
        filters, keep: carried,
      } : null}
      retrievedAt={result && !flags.hideTimestamp ? result.retrieved_at : null}
      queryHref={flags.hideLink ? null : `/queries/${query.id}`}
      downloadHref={result && keyInAddress && !e.definitions.length ? `/api/queries/${query.id}/results/${result.id}.csv?api_key=${encodeURIComponent(keyInAddress)}` : null} />
  )
  const { html } = renderDocument(deps.assets.manifest, page, { title: query.name, bodyClass: 'bare' })
  if (!pending) return framed(c, html, 200, headers)
  // a run still going: the page comes back with its id until it ends (with or without script)
  const again = new URLSearchParams(keep)
  for (const [name, value] of search) if (!KEPT.includes(name) && name !== 'job') again.append(name, value)
  again.set('job', (outcome as { pending: string }).pending)
  const refresh = `<meta http-equiv="refresh" content="${RELOAD_SECONDS};url=?${escapeAttribute(again.toString())}">`
  return framed(c, html.replace('</head>', `${refresh}</head>`), 200, headers)
})

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
