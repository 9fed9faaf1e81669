/**
 * Every visualization type by its stored name (the established tool's names, so saved visualizations carry over),
 * and the checks the API runs before saving one: a known type and options that match its schema.
 */
import { chart } from './chart/index.ts'
import { cohort } from './cohort/index.ts'
import { counter } from './counter/index.ts'
import { details } from './details/index.ts'
import { funnel } from './funnel/index.ts'
import { choropleth, markers } from './map/index.ts'
import { pivot } from './pivot/index.ts'
import { readOptions } from './read-options.ts'
import { sankeyType } from './sankey/index.ts'
import { sunburst } from './sunburst/index.ts'
import { table } from './table/index.ts'
import type { VisualizationDefinition } from './types.ts'
import { wordCloud } from './word-cloud/index.ts'

const DEFINITIONS = [chart, counter, details, funnel, cohort, pivot, sankeyType, sunburst, wordCloud, table, choropleth, markers]

export const VISUALIZATION_TYPES = DEFINITIONS.map((d) => d.type)
export type VisualizationType = (typeof VISUALIZATION_TYPES)[number]

const BY_TYPE = new Map<string, VisualizationDefinition<unknown, unknown>>(
  DEFINITIONS.map((d) => [d.type, d as unknown as VisualizationDefinition<unknown, unknown>]),
)

/** The definition of `type`, or null for a type Sightline does not know. */
export function getVisualization(type: string): VisualizationDefinition<unknown, unknown> | null {
  return BY_TYPE.get(type) ?? null
}

/** Names to offer in the editor's type picker, in the order above. */
export function visualizationChoices(): { type: string; name: string }[] {
  return DEFINITIONS.map((d) => ({ type: d.type, name: d.name }))
}

export type Validation =
  | { ok: true; type: string; options: Record<string, unknown> }
  | { ok: false; message: string }

/**
 * Checks a visualization before it is saved. On success `options` is what to store: defaults filled in, unknown
 * keys kept, values the type's schema does not understand kept as given (`read-options.ts`: drawing uses the
 * default instead), and keys the type drops on save removed (the table's paginationSize, spec 2 §5). On failure
 * `message` names the field drawing cannot do without, for a 400.
 */
export function validateVisualization(input: { type?: unknown; options?: unknown }): Validation {
  if (typeof input.type !== 'string' || !input.type) return { ok: false, message: 'type: A visualization type is required.' }
  const definition = getVisualization(input.type)
  if (!definition) return { ok: false, message: `type: Unknown visualization type: ${input.type}.` }
  const read = readOptions(definition.options, input.options ?? {})
  if (!read.ok) return { ok: false, message: `${['options', ...read.path].join('.')}: ${read.message}` }
  const options = read.stored
  for (const key of definition.dropOnSave ?? []) delete options[key]
  return { ok: true, type: definition.type, options }
}
