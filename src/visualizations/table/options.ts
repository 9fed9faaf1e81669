/**
 * Table options, named as in the established tool. `paginationSize` (how big the pager looks) is accepted on input
 * but dropped on save (spec 2 §5): Sightline sizes the pager by where the table is shown.
 */
import { z } from 'zod'

export const DISPLAY_AS = ['string', 'number', 'datetime', 'boolean', 'json', 'image', 'link'] as const

export const TableColumnSchema = z.looseObject({
  name: z.string(),
  title: z.string().max(500).optional(),
  visible: z.boolean().default(true),
  /** Position among the columns; columns without one keep the result's order, after those with one. */
  order: z.number().optional(),
  alignContent: z.enum(['left', 'center', 'right']).optional(),
  displayAs: z.enum(DISPLAY_AS).optional(),
  allowSearch: z.boolean().default(false),
  description: z.string().max(1000).default(''),
  numberFormat: z.string().max(50).optional(),
  dateTimeFormat: z.string().max(50).optional(),
  /** Text for false and true. */
  booleanValues: z.tuple([z.string(), z.string()]).default(['false', 'true']),
  /** Templates: `{{ @ }}` is this cell's value, `{{ column }}` another column's value in the same row. */
  linkUrlTemplate: z.string().max(2000).default('{{ @ }}'),
  linkTextTemplate: z.string().max(2000).default('{{ @ }}'),
  linkTitleTemplate: z.string().max(2000).default(''),
  linkOpenInNewTab: z.boolean().default(true),
  imageUrlTemplate: z.string().max(2000).default('{{ @ }}'),
  imageTitleTemplate: z.string().max(2000).default(''),
  imageWidth: z.union([z.string(), z.number()]).default(''),
  imageHeight: z.union([z.string(), z.number()]).default(''),
  /** Turn URLs inside text into links. */
  highlightLinks: z.boolean().default(false),
  /** Accepted for compatibility; HTML in cells is always shown as text (no sanitiser is bundled). */
  allowHTML: z.boolean().default(false),
})

export const TableOptionsSchema = z.looseObject({
  itemsPerPage: z.number().int().min(1).max(1000).default(25),
  columns: z.array(TableColumnSchema).default([]),
})

export type TableColumnOptions = z.infer<typeof TableColumnSchema>
export type TableOptions = z.infer<typeof TableOptionsSchema>
