/**
 * Sankey options. The established tool reads fixed column names (stage1 … stage5 and value) and has no options;
 * those names still work when nothing is set, and the stage and value columns can also be chosen.
 */
import { z } from 'zod'

export const SankeyOptionsSchema = z.looseObject({
  /** Columns in flow order; empty: columns named stage1, stage2 …, else every non-numeric column. */
  stageColumns: z.array(z.string()).default([]),
  /** empty: a column named value, else the last numeric column, else each row counts 1. */
  valueColumn: z.string().default(''),
  /** Per stage, nodes past this many (by size) are merged into "Other". */
  nodeLimit: z.number().int().min(2).max(100).default(20),
  numberFormat: z.string().max(50).default('0,0[.]00'),
})

export type SankeyOptions = z.infer<typeof SankeyOptionsSchema>
