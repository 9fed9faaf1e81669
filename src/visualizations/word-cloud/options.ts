/** Word cloud options, named as in the established tool, plus how many words to draw at most. */
import { z } from 'zod'

const Range = z.looseObject({ min: z.number().nullable().default(null), max: z.number().nullable().default(null) }).prefault({})

export const WordCloudOptionsSchema = z.looseObject({
  /** The text column; empty: the first text column. */
  column: z.string().default(''),
  /** When set, each row's `column` value is one word with this column's frequency; otherwise text is split into words. */
  frequenciesColumn: z.string().default(''),
  wordLengthLimit: Range,
  wordCountLimit: Range,
  maxWords: z.number().int().min(1).max(500).default(100),
})

export type WordCloudOptions = z.infer<typeof WordCloudOptionsSchema>
