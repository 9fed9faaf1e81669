import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { BadRequest, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { LIMITS, limitedJson, limitedText, validate } from '../validation/index.ts'
import type { Principal } from '../permissions/index.ts'
import { getVisualization, validateVisualization } from '../visualizations/registry.ts'
import { getAccessibleQuery, requireEdit } from './access.ts'
import { insertVisualization, type VisualizationRow } from './store.ts'
import * as store from './visualization-store.ts'

const id = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)])

const NAME = `name: at most ${LIMITS.name} characters.`
const description = limitedText('Description', LIMITS.description).nullish()
// the query page carries every visualization's options: their size is bounded like a query's text
const options = limitedJson('Visualization options', LIMITS.visualizationOptionsBytes).optional()

const CreateBody = z.object({
  query_id: id,
  type: z.string({ error: 'type: This field is required.' }).trim().min(1, 'type: This field is required.').max(LIMITS.name, NAME.replace('name', 'type')),
  name: z.string().trim().max(LIMITS.name, NAME).optional(),
  description,
  options,
})

const SaveBody = z.object({
  type: z.string().trim().min(1).max(LIMITS.name, NAME.replace('name', 'type')).optional(),
  name: z.string().trim().max(LIMITS.name, NAME).optional(),
  description,
  options,
})

export const visualizationTexts = {
  firstCannotBeDeleted: "The query's first visualization cannot be deleted.",
}

/** Type and options checked by the renderers' own schemas: unknown types and malformed options are a 400. */
function checked(type: string, options: unknown): { type: string; options: Record<string, unknown> } {
  const result = validateVisualization({ type, options: options ?? {} })
  if (!result.ok) throw new BadRequest(result.message)
  return { type: result.type, options: result.options }
}

/** A visualization and its query, when the caller may change that query (spec 2 §6: edit controls need canEdit). */
async function editable(deps: Deps, principal: Principal, visualizationId: number): Promise<VisualizationRow> {
  const row = await store.findVisualization(deps.sql, principal.orgId, visualizationId)
  if (!row) throw new NotFound()
  const query = await getAccessibleQuery(deps, principal, row.query_id)
  await requireEdit(deps.sql, principal, query)
  return row
}

/** POST api/visualizations. The name defaults to the type's own (e.g. "Chart"). */
export async function createVisualization(deps: Deps, principal: Principal, body: unknown): Promise<VisualizationRow> {
  const input = validate(CreateBody, body)
  const query = await getAccessibleQuery(deps, principal, input.query_id).catch(() => { throw new BadRequest('query_id: no such query.') })
  await requireEdit(deps.sql, principal, query)
  const { type, options } = checked(input.type, input.options)
  const name = input.name || getVisualization(type)?.name || type
  return audited(deps.sql, principal, (row) => ({ action: 'create', objectType: 'visualization', objectId: row.id, properties: { query_id: query.id } }), (tx) =>
    insertVisualization(tx, query.id, { type, name, description: input.description ?? '', options }))
}

/** POST api/visualizations/{id}: fields not sent keep their value; a Table's paginationSize is dropped (spec 2 §5). */
export async function saveVisualization(deps: Deps, principal: Principal, visualizationId: number, body: unknown): Promise<VisualizationRow> {
  const current = await editable(deps, principal, visualizationId)
  const input = validate(SaveBody, body)
  const { type, options } = checked(input.type ?? current.type, input.options ?? current.options)
  return audited(deps.sql, principal, (row) => ({ action: 'edit', objectType: 'visualization', objectId: row.id, properties: { query_id: row.query_id } }), (tx) =>
    store.updateVisualization(tx, current.id, { type, options, name: input.name || current.name, description: input.description ?? current.description }))
}

/** DELETE api/visualizations/{id}: any but the query's first. */
export async function deleteVisualization(deps: Deps, principal: Principal, visualizationId: number) {
  const current = await editable(deps, principal, visualizationId)
  if ((await store.firstVisualizationId(deps.sql, current.query_id)) === current.id) throw new BadRequest(visualizationTexts.firstCannotBeDeleted)
  await audited(deps.sql, principal, { action: 'delete', objectType: 'visualization', objectId: current.id, properties: { query_id: current.query_id } }, (tx) =>
    store.deleteVisualization(tx, current.id))
}
