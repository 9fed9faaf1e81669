import { renameTables, type TableName } from '../runners/index.ts'
import { FileError, KEY_PATTERN } from './files-docs.ts'

/**
 * Query Results references in files. The store keeps `query_N`, `cached_query_N` and `param_query_N_{a=1}` with
 * database ids, which differ between instances; a file names the query by its key in braces instead:
 * `query_{daily-sales}`, `cached_query_{daily-sales}`, `param_query_{daily-sales}_{a=1}`. Braces are not SQL, so the
 * form reads as a placeholder in a diff and can never be mistaken for a real table. Both directions find references
 * with the runner's own scan (after FROM, JOIN and a FROM list's commas, bare or quoted, never in strings or
 * comments), so what is rewritten is exactly what the runner would read.
 */

/** A reference by id, as the runner reads it: the prefix (its case kept), the id, and a parameterised one's values. */
const BY_ID = /^((?:cached_|param_)?query_)(\d{1,15})((?:_\{[^}]*\})?)$/i
/** A reference by key, as a file writes it. */
const BY_KEY = /^((?:cached_|param_)?query_)\{([^}\s]*)\}((?:_\{[^}]*\})?)$/i
const BARE_ID = /(?:cached_|param_)?query_\d{1,15}(?:_\{[^}]*\})?(?![\w$])/iy
const BARE_ANY = /(?:cached_|param_)?query_(?:\d{1,15}|\{[^}\s]*\})(?:_\{[^}]*\})?(?![\w$])/iy

/** Braces with values belong to `param_query_` alone (`query_1_{…}` is no reference, as for the runner). */
const wellFormed = (prefix: string, values: string) => prefix.toLowerCase().startsWith('param_') === (values !== '')

/** The token with its name replaced, in the token's own quotes. */
const retoken = (t: TableName, name: string) => (t.quoted ? `${t.token[0]}${name}${t.token[t.token.length - 1]}` : name)

/**
 * A stored text as a file writes it: each reference to a query of the organization by its key. A reference to a
 * query it does not have (deleted, or never its own) stays as it is, and importing the file refuses it.
 */
export function referencesToKeys(text: string, keyOf: (id: number) => string | undefined): string {
  return renameTables(text, BARE_ID, (t) => {
    const m = BY_ID.exec(t.name)
    if (!m || !wellFormed(m[1], m[3])) return undefined
    const key = keyOf(Number(m[2]))
    return key === undefined ? undefined : retoken(t, `${m[1]}{${key}}${m[3]}`)
  })
}

/**
 * A file's text as the store keeps it: each reference by key turned into the id the query has here. A reference by id
 * is refused (an id means another object on another instance, or another organization's query), as is a key that
 * names no query here; the message names the reference and `firstLine + ` its line within the text.
 */
export function referencesToIds(text: string, idOf: (key: string) => number | undefined, firstLine: number): string {
  const lineOf = (at: number) => firstLine + text.slice(0, at).split('\n').length - 1
  return renameTables(text, BARE_ANY, (t) => {
    const byId = BY_ID.exec(t.name)
    if (byId && wellFormed(byId[1], byId[3])) {
      throw new FileError(`${t.name}: name the query by its key (${byId[1]}{<key>}${byId[3]}), not by id`, lineOf(t.at))
    }
    const m = BY_KEY.exec(t.name)
    if (!m || !wellFormed(m[1], m[3])) return undefined
    if (!KEY_PATTERN.test(m[2])) throw new FileError(`${t.name}: "${m[2]}" is not a query key (lower-case letters, digits, "-" and "_")`, lineOf(t.at))
    const id = idOf(m[2])
    if (id === undefined) throw new FileError(`${t.name}: there is no query with the key "${m[2]}"`, lineOf(t.at))
    return retoken(t, `${m[1]}${id}${m[3]}`)
  })
}

/**
 * An imported text's references renumbered to the ids their queries have here, found by the runner's own scan (after
 * FROM, JOIN and a FROM list's commas, bare or quoted), each id whole (query_5 never touches query_50). A reference to
 * a query the import did not bring stays as it is and is reported.
 */
export function rewriteQueryReferences(text: string, queryId: (oldId: number) => number | undefined): { text: string; unmapped: number[] } {
  const unmapped: number[] = []
  const rewritten = renameTables(text, BARE_ID, (t) => {
    const m = BY_ID.exec(t.name)
    if (!m || !wellFormed(m[1], m[3])) return undefined
    const id = queryId(Number(m[2]))
    if (id === undefined) {
      unmapped.push(Number(m[2]))
      return undefined
    }
    return retoken(t, `${m[1]}${id}${m[3]}`)
  })
  return { text: rewritten, unmapped }
}

/** The keys of the queries a file's text names (`query_{key}` and the others), each once. */
export function referencedKeys(text: string): string[] {
  const keys = new Set<string>()
  renameTables(text, BARE_ANY, (t) => {
    const m = BY_KEY.exec(t.name)
    if (m && wellFormed(m[1], m[3])) keys.add(m[2])
    return undefined
  })
  return [...keys]
}
