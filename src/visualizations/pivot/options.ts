/**
 * Pivot table options, named as in the pivot table the established tool embeds: `rows`, `cols` and `vals` are
 * column names, `aggregatorName` the summary. Short lower-case names (`sum`, `min` …) are accepted too.
 */
import { z } from 'zod'

const AGGREGATORS = {
  Count: 'count', Sum: 'sum', 'Integer Sum': 'sum', Average: 'average', Minimum: 'min', Maximum: 'max',
  count: 'count', sum: 'sum', average: 'average', min: 'min', max: 'max',
} as const

export type Aggregation = (typeof AGGREGATORS)[keyof typeof AGGREGATORS]

export const PivotOptionsSchema = z.looseObject({
  rows: z.array(z.string()).default([]),
  cols: z.array(z.string()).default([]),
  /** The value column (the first one is used); Count needs none. */
  vals: z.array(z.string()).default([]),
  aggregatorName: z.enum(Object.keys(AGGREGATORS) as [keyof typeof AGGREGATORS]).default('Count'),
  rowTotals: z.boolean().default(true),
  colTotals: z.boolean().default(true),
  numberFormat: z.string().max(50).default('0,0.[00]'),
})

export type PivotOptions = z.infer<typeof PivotOptionsSchema>

/** The aggregation an `aggregatorName` stands for. */
export function aggregation(name: PivotOptions['aggregatorName']): Aggregation {
  return AGGREGATORS[name]
}
