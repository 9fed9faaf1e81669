/** Funnel options, named as in the established tool. */
import { z } from 'zod'

const ColumnRef = z.looseObject({ colName: z.string().default(''), displayAs: z.string().max(100).default('') })

export const FunnelOptionsSchema = z.looseObject({
  stepCol: ColumnRef.prefault({ displayAs: 'Steps' }),
  valueCol: ColumnRef.prefault({ displayAs: 'Value' }),
  /** Largest value first; off keeps the rows' order (or `sortKeyCol`'s). */
  autoSort: z.boolean().default(true),
  sortKeyCol: z.looseObject({ colName: z.string().default(''), reverse: z.boolean().default(false) }).prefault({}),
  itemsLimit: z.number().int().min(1).max(500).default(100),
  /** Percentages are clamped to this range, so a tiny first step does not print 123456%. */
  percentValuesRange: z.looseObject({ min: z.number().default(0.01), max: z.number().default(1000) }).prefault({}),
  numberFormat: z.string().max(50).default('0,0[.]00'),
  percentFormat: z.string().max(50).default('0[.]00%'),
})

export type FunnelOptions = z.infer<typeof FunnelOptionsSchema>
