/** Counter options, named as in the established tool so its saved counters carry over. */
import { z } from 'zod'

export const CounterOptionsSchema = z.looseObject({
  counterLabel: z.string().max(200).default(''),
  /** The value's column; empty shows the first column. */
  counterColName: z.string().default(''),
  /** 1-based; negative counts from the last row (-1 is the last). */
  rowNumber: z.number().int().default(1),
  targetColName: z.string().default(''),
  targetRowNumber: z.number().int().default(1),
  /** Show the number of rows instead of a value. */
  countRow: z.boolean().default(false),
  stringDecimal: z.number().int().min(0).max(10).default(0),
  stringDecChar: z.string().max(3).default('.'),
  stringThouSep: z.string().max(3).default(','),
  stringPrefix: z.string().max(50).default(''),
  stringSuffix: z.string().max(50).default(''),
  /** Format the target like the value (prefix, suffix, decimals). */
  formatTargetValue: z.boolean().default(false),
})

export type CounterOptions = z.infer<typeof CounterOptionsSchema>
