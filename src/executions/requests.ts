import { getAccessible, requireRun } from '../data-sources/index.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { applyParameters, ParameterError, type ParameterDefinition } from '../shared/parameters/index.ts'
import { dropdownValuesFor } from './dropdowns.ts'
import { execute, refusal, type Outcome } from './service.ts'
import { savedParameterDefinitions } from './store.ts'

/** New text to run: on which source, with which parameter values, how old a cached result may be (-1: any). */
export interface AdhocRunInput {
  query: string
  dataSourceId: number | null
  parameters: Record<string, unknown>
  maxAge: number
  applyAutoLimit: boolean
  /** The saved query the text belongs to, whose parameter definitions type the values. */
  queryId: number | null
}

/** Parameter values in place, with the spec's texts for what is missing or does not fit. */
export async function fillParameters(deps: Deps, orgId: number, text: string, defs: readonly ParameterDefinition[], values: Record<string, unknown>): Promise<string> {
  const dropdownValues = await dropdownValuesFor(deps.sql, orgId, defs)
  try {
    return applyParameters(text, defs, values, { now: new Date(), dropdownValues })
  } catch (error) {
    if (error instanceof ParameterError) throw refusal(error.message)
    throw error
  }
}

/**
 * `POST api/query_results`: new text typed in the editor. It needs full access to the source (view-only groups may
 * only read results) and the execute permission. When the text belongs to a saved query the caller can see, its
 * parameter definitions type the values (so dynamic dates resolve); otherwise every placeholder takes its value as given.
 */
export async function runAdhoc(deps: Deps, principal: Principal, input: AdhocRunInput): Promise<Outcome> {
  if (input.dataSourceId == null) throw refusal('Please select data source to run this query.')
  const ds = await getAccessible(deps, principal, input.dataSourceId)
  requireRun(principal, ds)
  const queryId = input.queryId
  const defs = queryId != null ? await savedParameterDefinitions(deps.sql, principal.orgId, queryId) : []
  const text = await fillParameters(deps, principal.orgId, input.query, defs, input.parameters)
  return execute(deps, {
    orgId: principal.orgId, dataSource: ds, text, queryId, userId: principal.id,
    maxAge: input.maxAge, applyAutoLimit: input.applyAutoLimit,
  })
}
