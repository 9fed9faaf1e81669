/**
 * Details options: one row shown as a record. Columns take the table's column settings (title, visibility, order,
 * format), so a result reads the same in both.
 */
import { z } from 'zod'
import { TableColumnSchema } from '../table/options.ts'

export const DetailsOptionsSchema = z.looseObject({
  columns: z.array(TableColumnSchema).default([]),
})

export type DetailsOptions = z.infer<typeof DetailsOptionsSchema>
