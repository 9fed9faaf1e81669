/** The most words one search looks for: more narrow nothing down, and each costs a condition. */
const MAX_WORDS = 20

/** A list search as the established tool reads it: words, and the alternatives `or` separates. */
export interface SearchWords {
  /** The search words that can match something (each has a letter or a digit), without the word `or`. */
  words: string[]
  /** An item matches when it matches every word of one alternative (reference §3.1). */
  alternatives: string[][]
}

export function searchWords(q: string): SearchWords {
  const words = q.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).slice(0, MAX_WORDS)
  const alternatives = splitAtOr(words)
  return { words: alternatives.flat(), alternatives }
}

/**
 * The words between each `or` (any case); an `or` with nothing on one side joins nothing and is dropped, and a search
 * that is only `or`s looks for the word itself.
 */
function splitAtOr(words: string[]): string[][] {
  const isOr = (w: string) => w.toLowerCase() === 'or'
  const alternatives: string[][] = [[]]
  for (const word of words) {
    if (isOr(word)) alternatives.push([])
    else alternatives[alternatives.length - 1].push(word)
  }
  const nonEmpty = alternatives.filter((a) => a.length > 0)
  return nonEmpty.length || !words.length ? nonEmpty : [words.slice(0, 1)]
}
