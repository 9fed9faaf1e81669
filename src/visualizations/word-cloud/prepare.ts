/**
 * Rows → words and how often they occur: split from text (letters and digits, any script, lower-cased), or one word per row
 * with a frequency column. Limits on word length and count apply, then the most frequent `maxWords` are kept.
 */
import { columnKind, toNumber, valueKey } from '../data.ts'
import type { DataSet } from '../types.ts'
import type { WordCloudOptions } from './options.ts'

export interface WordCount {
  text: string
  count: number
}

export interface WordCloudData {
  words: WordCount[]
  /** Distinct words before `maxWords` was applied. */
  distinct: number
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu

const within = (n: number, range: { min: number | null; max: number | null }) =>
  (range.min === null || n >= range.min) && (range.max === null || n <= range.max)

export function prepareWordCloud(options: WordCloudOptions, data: DataSet): WordCloudData {
  const names = data.columns.map((c) => c.name)
  const column = names.includes(options.column)
    ? options.column
    : data.columns.find((c) => columnKind(c, data.rows) === 'string')?.name ?? names[0]
  if (!column) return { words: [], distinct: 0 }
  const frequencies = names.includes(options.frequenciesColumn) ? options.frequenciesColumn : null
  const counts = new Map<string, number>()
  for (const row of data.rows) {
    const value = row[column]
    if (value == null) continue
    if (frequencies) {
      const n = toNumber(row[frequencies])
      if (n !== null && n > 0) counts.set(valueKey(value), (counts.get(valueKey(value)) ?? 0) + n)
      continue
    }
    // split words are counted whatever their case ("Great" and "great" are one word)
    for (const word of valueKey(value).toLocaleLowerCase().match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  const words = [...counts]
    .filter(([text, count]) => within([...text].length, options.wordLengthLimit) && within(count, options.wordCountLimit))
    .map(([text, count]) => ({ text, count }))
    .sort((a, b) => b.count - a.count || a.text.localeCompare(b.text))
  return { words: words.slice(0, options.maxWords), distinct: words.length }
}
