/** Cohort options, named as in the established tool. */
import { z } from 'zod'
import { ColorSchema } from '../theme.ts'

const Hex = ColorSchema.and(z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colours here are #rrggbb'))

export const CohortOptionsSchema = z.looseObject({
  timeInterval: z.enum(['daily', 'weekly', 'monthly']).default('daily'),
  /** `diagonal` fills stages a cohort has had time to reach with 0; `simple` shows the data as it is. */
  mode: z.enum(['diagonal', 'simple']).default('diagonal'),
  dateColumn: z.string().default('date'),
  stageColumn: z.string().default('day_number'),
  totalColumn: z.string().default('total'),
  valueColumn: z.string().default('value'),
  percentFormat: z.string().max(50).default('0[.]00%'),
  numberFormat: z.string().max(50).default('0,0[.]00'),
  showTooltips: z.boolean().default(true),
  colors: z.looseObject({
    min: Hex.default('#eef3fb'),
    max: Hex.default('#1f4e8c'),
    steps: z.number().int().min(2).max(30).default(10),
  }).prefault({}),
})

export type CohortOptions = z.infer<typeof CohortOptionsSchema>
