/**
 * Sunburst options. The established tool reads either a `sequence` column ("a-b-c") or stage1 … stage5, with a
 * value column; both still work when nothing is set, and the columns can also be chosen.
 */
import { z } from 'zod'

export const SunburstOptionsSchema = z.looseObject({
  stageColumns: z.array(z.string()).default([]),
  /** A column holding whole paths as text, split by `separator`; used instead of stage columns when set or named "sequence". */
  sequenceColumn: z.string().default(''),
  separator: z.string().min(1).max(5).default('-'),
  valueColumn: z.string().default(''),
  numberFormat: z.string().max(50).default('0,0[.]00'),
})

export type SunburstOptions = z.infer<typeof SunburstOptionsSchema>
