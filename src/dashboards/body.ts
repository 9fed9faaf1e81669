import { z } from 'zod'
import { DASHBOARD_GRID as GRID } from '../shared/dashboard-grid.ts'
import { LIMITS, jsonBytes, limitedText, tooLarge, tooLong, validate } from '../validation/index.ts'

export { GRID }

/** Bytes of JSON a dashboard's or a widget's options may hold: saved parameters, mappings, positions. */
export const OPTIONS_BYTES = 100_000
/** A text box's markdown: the same room as a query's text. */
export const TEXT_CHARS = LIMITS.queryText

const ID = (field: string) => {
  const message = `${field} must be a positive whole number.`
  return z.union([z.number({ error: message }), z.string({ error: message }).regex(/^\d{1,15}$/, message).transform(Number)], { error: message })
    .pipe(z.number().int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message))
}

const Name = z.string({ error: 'name must be text.' }).trim().max(LIMITS.name, `Name: This field is too long (at most ${LIMITS.name} characters).`)
const Tags = z.array(z.string({ error: 'tags must be a list of texts.' }), { error: 'tags must be a list of texts.' })
  .max(LIMITS.tags, `A dashboard has at most ${LIMITS.tags} tags.`)
  .refine((tags) => tags.every((tag) => tag.length <= LIMITS.tag), tooLong('A tag', LIMITS.tag))
const Options = (label: string) => z.record(z.string(), z.unknown(), { error: `${label} must be an object.` })
  .refine((o) => jsonBytes(o) <= OPTIONS_BYTES, tooLarge(label, OPTIONS_BYTES))
const Layout = z.array(z.unknown(), { error: 'layout must be a list.' }).refine((l) => jsonBytes(l) <= OPTIONS_BYTES, tooLarge('Layout', OPTIONS_BYTES))
const Bool = (field: string) => z.boolean({ error: `${field} must be true or false.` })

/** POST /api/dashboards: only the name counts (reference §7.1); whatever else a client sends is ignored. */
const CreateBody = z.object({
  name: z.string({ error: (i) => (i.input === undefined ? 'Name: This field is required.' : 'name must be text.') })
    .trim().min(1, 'Name: This field is required.').max(LIMITS.name, `Name: This field is too long (at most ${LIMITS.name} characters).`),
})

/** POST /api/dashboards/{id}: only what is given changes; a blank name is ignored (spec 2 §5). */
const UpdateBody = z.object({
  name: Name.optional(),
  layout: Layout.optional(),
  tags: Tags.nullish(),
  is_draft: Bool('is_draft').optional(),
  is_archived: Bool('is_archived').optional(),
  dashboard_filters_enabled: Bool('dashboard_filters_enabled').optional(),
  options: Options('Dashboard options').optional(),
  version: z.number({ error: 'version must be a whole number.' }).int('version must be a whole number.').nullish(),
})

export type DashboardUpdate = z.infer<typeof UpdateBody>

const whole = (field: string, min: number, max: number) =>
  z.number({ error: `${field} must be a number.` }).int(`${field} must be a whole number.`)
    .min(min, `${field} must be at least ${min}.`).max(max, `${field} must be at most ${max}.`)

/**
 * A widget's place on the grid, as far as the server checks it: inside the 6 columns and a sane height. Other keys
 * (minSizeX, autoHeight …) are the browser's. A negative sizeY means auto height, as the established tool reads it.
 */
const Position = z.looseObject({
  col: whole('position.col', 0, GRID.columns - 1).optional(),
  row: whole('position.row', 0, GRID.maxRow).optional(),
  sizeX: whole('position.sizeX', 1, GRID.columns).optional(),
  sizeY: whole('position.sizeY', -1, GRID.maxRows).refine((n) => n !== 0, 'position.sizeY must not be 0.').optional(),
}, { error: 'options.position must be an object.' })
  .refine((p) => (p.col ?? 0) + (p.sizeX ?? 1) <= GRID.columns, `A widget must fit in the ${GRID.columns} columns of the grid.`)

const WidgetOptions = z.looseObject({ position: Position.optional() }, { error: 'options must be an object.' })
  .refine((o) => jsonBytes(o) <= OPTIONS_BYTES, tooLarge('Widget options', OPTIONS_BYTES))
const Text = limitedText('Text', TEXT_CHARS, 'text must be text.')

/** POST /api/widgets (reference §7.2): width is accepted and ignored (always 1), the position lives in options. */
const CreateWidgetBody = z.object({
  dashboard_id: ID('dashboard_id'),
  visualization_id: ID('visualization_id').nullish(),
  text: Text.nullish(),
  width: z.unknown().optional(),
  options: WidgetOptions.nullish(),
})

/** POST /api/widgets/{id}: text and options; the rest of what clients send back is ignored. */
const UpdateWidgetBody = z.object({ text: Text.nullish(), options: WidgetOptions.optional() })

export function parseCreateDashboard(body: unknown): { name: string } {
  return validate(CreateBody, body)
}

export function parseUpdateDashboard(body: unknown): DashboardUpdate {
  return validate(UpdateBody, body)
}

export function parseCreateWidget(body: unknown) {
  const input = validate(CreateWidgetBody, body)
  return { dashboardId: input.dashboard_id, visualizationId: input.visualization_id ?? null, text: input.text ?? '', options: input.options ?? {} }
}

export function parseUpdateWidget(body: unknown): { text?: string; options?: Record<string, unknown> } {
  const input = validate(UpdateWidgetBody, body)
  return { text: input.text ?? undefined, options: input.options }
}
