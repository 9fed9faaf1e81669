import { drawResult, openResult, resultRowObjects } from '../results/index.ts'
import type { Deps } from '../deps.ts'
import { HttpError, NotFound } from '../errors.ts'
import { dropdownOptions } from '../executions/index.ts'
import { getQueryExecution } from '../workers/index.ts'
import { allowed } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import type { ResultRow } from '../results/index.ts'
import { parseInterval } from '../schedules/index.ts'
import { JobStatus } from '../shared/job-status.ts'
import { effectiveType, isMultiValue, isSafe, normalizeValue, valuesFromSearchParams, type ParameterDefinition, type ParameterValue } from '../shared/parameters/index.ts'
import { valueKey } from '../visualizations/data.ts'
import { selectionFromSearch } from '../visualizations/filter-choices.ts'
import { getAccessibleQuery, queryForApiKey } from './service.ts'
import { keyMayOpen, readerOf, runSaved, type SavedCaller } from './run-saved.ts'
import * as store from './store.ts'
import type { DateFormats } from '../shared/time.ts'
import type { QueryRow, VisualizationRow } from './store.ts'

/**
 * The embed page's rules (spec 2 §2 "/embed/query/{queryId}/visualization/{visualizationId}"): who the key opens the
 * query to, which result the page shows for the address's parameter values, and the drawing of it. The page itself
 * (markup, caching headers, framing) is routes/embed/query/[id]/visualization/[vid].tsx.
 */

/** The address's switches: each counts when present, whatever its value, as in the established tool. */
export interface EmbedFlags {
  hideHeader: boolean
  hideParameters: boolean
  hideLink: boolean
  hideTimestamp: boolean
  showDescription: boolean
}

export function embedFlags(search: URLSearchParams): EmbedFlags {
  return {
    hideHeader: search.has('hide_header'), hideParameters: search.has('hide_parameters'), hideLink: search.has('hide_link'),
    hideTimestamp: search.has('hide_timestamp'), showDescription: search.has('showDescription'),
  }
}

/** The drawing's size: the default iframe (720 × 391) less the page's padding, header and footer; SVG scales to fit. */
export const EMBED_SIZE = { width: 690, height: 280 } as const
/** Above this many rows the server does not draw (reading them costs more than the page is worth). */
export const EMBED_MAX_ROWS = 20_000

/** Seconds a query's latest result stands until its next refresh: its schedule's interval, 0 without one. */
export function refreshSeconds(query: Pick<QueryRow, 'schedule'>): number {
  return query.schedule ? parseInterval(query.schedule.interval) ?? 0 : 0
}

/**
 * The caller of an embed: the query's own key when the address's key is that (so a signed-in viewer of a link with a
 * query key sees what everyone holding it sees), else the signed-in user or the user whose key it is, when they may
 * see the query. Anything else is 404 alike: a wrong key, a revoked one, a query that does not exist or that the user
 * may not see.
 */
export async function embedCaller(deps: Deps, queryId: number, key: string | undefined, principal: Principal | undefined): Promise<{ caller: SavedCaller; query: QueryRow }> {
  if (key) {
    const query = await queryForApiKey(deps, queryId, key).catch(() => undefined)
    if (query) return { caller: { queryKey: key }, query: keyMayOpen(query) }
  }
  if (!principal || !allowed(principal, 'view_query')) throw new NotFound()
  return { caller: { principal }, query: await getAccessibleQuery(deps, principal, queryId) }
}

export interface OpenedEmbed {
  query: QueryRow
  visualization: VisualizationRow | null
  definitions: ParameterDefinition[]
  /** The values the page runs with: the address's, else each definition's default. */
  values: Record<string, ParameterValue>
  /** Text parameters make a query unsafe to embed, unless SIGHTLINE_ALLOW_PARAMETERS_IN_EMBEDS says otherwise. */
  refused: boolean
}

/** A form posts a multiple choice as repeated keys; the address form of one is a JSON array. */
function withMultiValues(defs: readonly ParameterDefinition[], search: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(search)
  for (const def of defs.filter(isMultiValue)) {
    const all = search.getAll(`p_${def.name}`)
    if (all.length > 1) out.set(`p_${def.name}`, JSON.stringify(all))
  }
  return out
}

export async function openEmbed(deps: Deps, query: QueryRow, visualizationId: number, search: URLSearchParams): Promise<OpenedEmbed> {
  const visualization = (await store.listVisualizations(deps.sql, query.id)).find((v) => v.id === visualizationId) ?? null
  const definitions = (query.options.parameters ?? []) as ParameterDefinition[]
  const fromAddress = valuesFromSearchParams(definitions, withMultiValues(definitions, search))
  const values: Record<string, ParameterValue> = {}
  for (const def of definitions) values[def.name] = Object.hasOwn(fromAddress, def.name) ? fromAddress[def.name] : normalizeValue(def, def.value)
  const refused = !deps.config.allowParametersInEmbeds && !isSafe(definitions, query.query)
  return { query, visualization, definitions, values, refused }
}

export type EmbedResult = { result: ResultRow } | { pending: string } | { error: string }

/** A run's id as the page's reload carries it. */
export const isJobId = (value: string | undefined): value is string => !!value && /^[0-9a-f-]{36}$/i.test(value)

/**
 * The result the page shows. Without parameters, the query's latest (a run when it has none); with them, a stored
 * result of the same text no older than the refresh interval, else a run, joined by everyone asking the same. A run
 * that outlasts the request's brief wait comes back as `pending`: the page reloads with its id (`job`) and reads its
 * end. Refusals and bad values become the page's 'Error: …' text, never a failed request.
 */
export async function embedResult(deps: Deps, caller: SavedCaller, e: OpenedEmbed, job: string | undefined): Promise<EmbedResult> {
  try {
    if (isJobId(job)) {
      const run = await getQueryExecution(deps, e.query.id, job)
      if (run?.status === JobStatus.Failure) return { error: run.error || 'Query failed.' }
      if (run?.status === JobStatus.Success && run.query_result_id != null) return { result: await openResult(deps, readerOf(caller), e.query.org_id, run.query_result_id) }
      if (run) return { pending: run.id }
    }
    if (!e.definitions.length && e.query.latest_query_data_id != null) return { result: await openResult(deps, readerOf(caller), e.query.org_id, e.query.latest_query_data_id) }
    const maxAge = refreshSeconds(e.query) || -1
    const outcome = await runSaved(deps, caller, e.query.id, { parameters: e.values, maxAge })
    if ('result' in outcome) return { result: outcome.result }
    const run = outcome.execution
    if (run.status === JobStatus.Failure) return { error: run.error || 'Query failed.' }
    return { pending: run.id }
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return { error: error.message }
    throw error
  }
}

/** A result filter as the embed page offers it: its key in the address, its values and the ones chosen, as text. */
export interface EmbedFilter {
  name: string
  multiple: boolean
  values: string[]
  chosen: string[]
}

export type EmbedDrawing = { html: string; filters: EmbedFilter[] } | { note: 'too-large' | 'cannot-draw' }

/**
 * The visualization drawn from the result with the filter choice of the address (`?region=Europe`, a multi-filter's
 * values repeated or as a JSON array), by the dashboards' drawing, so an embed filters exactly as a widget does; the
 * filters come back with the choice in force, for the page to show it (nothing is filtered without a control saying so).
 */
export async function drawEmbed(deps: Deps, visualization: VisualizationRow, result: ResultRow, search: URLSearchParams, formats: DateFormats): Promise<EmbedDrawing> {
  if (result.row_count > EMBED_MAX_ROWS) return { note: 'too-large' }
  const read = async () => ({ columns: result.columns, rows: await resultRowObjects(deps, result) })
  const drawn = await drawResult(deps, read, visualization, result.id, EMBED_SIZE, (filters) => selectionFromSearch(search, filters), formats)
  if (drawn.html === null) return { note: drawn.note === 'too-large' ? 'too-large' : 'cannot-draw' }
  const filters = drawn.filters.map((f): EmbedFilter => ({
    name: f.friendlyName, multiple: f.multiple, values: f.values.map(valueKey),
    chosen: (drawn.selection[f.name] ?? (f.multiple ? f.current : f.current.slice(0, 1))).map(valueKey),
  }))
  return { html: drawn.html, filters }
}

/** The choices of each query-dropdown parameter, by name, for the page's form (the dropdown's latest result). */
export async function dropdownChoices(deps: Deps, caller: SavedCaller, e: OpenedEmbed): Promise<Record<string, { name: string; value: string }[]>> {
  const dropdowns = e.definitions.filter((d) => effectiveType(d.type) === 'query' && Number.isSafeInteger(Number(d.queryId)))
  const entries = await Promise.all(dropdowns.map(async (d) => [d.name, await dropdownOptions(deps.sql, readerOf(caller), e.query.org_id, Number(d.queryId))] as const))
  return Object.fromEntries(entries)
}
