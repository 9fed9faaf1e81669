import { createHash } from 'node:crypto'

/**
 * The Query Results source's table names, as the established tool spells them: `query_N` (query N run now),
 * `cached_query_N` (its latest stored result) and `param_query_N_{a=1&b=2}` (run with these parameter values). They
 * are found where a table goes: after FROM and JOIN, after each comma of a FROM list, bare or quoted ("", ``, []),
 * and never inside strings or comments.
 */
export interface QueryReference {
  kind: 'live' | 'cached' | 'param'
  queryId: number
  /** The values of a `param_query_N_{…}` reference, as its URL-encoded text gives them. */
  parameters: Record<string, string>
  /** The table the rows are loaded into, and the name the rewritten text uses. */
  table: string
}

export interface ReferencedText {
  /** Each reference once, in order of first appearance. */
  references: QueryReference[]
  /** The text with every reference replaced by its table's name. */
  text: string
}

const REFERENCE = /^(cached_|param_)?query_(\d{1,15})(?:_\{([^}]*)\})?$/i
/** A bare reference: word characters, and for a parameterised one its braces. */
const BARE = /(?:cached_|param_)?query_\d{1,15}(?:_\{[^}]*\})?(?![\w$])/iy
const WORD = /[A-Za-z_][\w$]*/y
const QUOTED = /"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]/y
const STRING = /'(?:[^']|'')*'?/y
const LINE_COMMENT = /--[^\n]*/y
const BLOCK_COMMENT = /\/\*[\s\S]*?(?:\*\/|$)/y
/** Keywords after which a FROM list's commas no longer separate tables. */
const END_OF_FROM = new Set(['where', 'group', 'order', 'having', 'limit', 'union', 'intersect', 'except', 'window', 'select', 'returning', 'set', 'values', 'qualify', 'offset'])

function parse(name: string): Omit<QueryReference, 'table'> | undefined {
  const m = REFERENCE.exec(name)
  if (!m) return undefined
  const prefix = m[1]?.toLowerCase()
  // braces belong to param_query_ alone; `query_1_{…}` is not a reference
  if ((prefix === 'param_') !== (m[3] !== undefined)) return undefined
  const kind = prefix === 'cached_' ? 'cached' : prefix === 'param_' ? 'param' : 'live'
  const parameters = kind === 'param' ? Object.fromEntries(new URLSearchParams(m[3])) : {}
  return { kind, queryId: Number(m[2]), parameters }
}

/** A table name for a reference: its own for `query_N` and `cached_query_N`, one per set of values for `param_query_N`. */
function tableOf(ref: Omit<QueryReference, 'table'>): string {
  if (ref.kind === 'live') return `query_${ref.queryId}`
  if (ref.kind === 'cached') return `cached_query_${ref.queryId}`
  const values = Object.entries(ref.parameters).sort(([a], [b]) => (a < b ? -1 : 1))
  return `param_query_${ref.queryId}_${createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 12)}`
}

/** The references of a query text and the text that reads their tables. */
export function findReferences(text: string): ReferencedText {
  const found = new Map<string, QueryReference>()
  const out = renameTables(text, BARE, ({ name, quoted }) => {
    const ref = parse(name)
    if (!ref) return undefined
    const table = tableOf(ref)
    if (!found.has(table)) found.set(table, { ...ref, table })
    return quoted ? `"${table}"` : table
  })
  return { references: [...found.values()], text: out }
}

/** A name where a table goes: as written (`token`, quotes and all), unquoted (`name`), and where it starts. */
export interface TableName { token: string; name: string; quoted: boolean; at: number }

/**
 * Walks a text as `findReferences` does, handing each name in a table's place to `rename` when it is quoted or the
 * sticky `bare` pattern matches it there; what `rename` answers replaces the token, `undefined` keeps it. The scan that
 * finds references is also the one that rewrites them elsewhere (a git export names queries by key), so both agree on
 * what is a reference.
 */
export function renameTables(text: string, bare: RegExp, rename: (t: TableName) => string | undefined): string {
  // one frame per parenthesis level: whether it is in a FROM list, whether a table name comes next
  const frames = [{ inFrom: false, tableNext: false }]
  let out = ''
  let i = 0
  const at = (re: RegExp) => ((re.lastIndex = i), re.exec(text))
  while (i < text.length) {
    const frame = frames[frames.length - 1]
    const ch = text[i]
    const skipped = at(STRING) ?? at(LINE_COMMENT) ?? at(BLOCK_COMMENT)
    if (skipped && (ch === "'" || ch === '-' || ch === '/')) {
      out += skipped[0]
      i += skipped[0].length
      continue
    }
    if (/\s/.test(ch)) {
      out += ch
      i++
      continue
    }
    if (frame.tableNext) {
      const quoted = ch === '"' || ch === '`' || ch === '[' ? at(QUOTED) : null
      const plain = quoted ? null : at(bare)
      const token = quoted?.[0] ?? plain?.[0]
      const renamed = token ? rename({ token, name: quoted ? token.slice(1, -1).replace(/""|``/g, (q) => q[0]) : token, quoted: !!quoted, at: i }) : undefined
      if (token && renamed !== undefined) {
        out += renamed
        i += token.length
        frame.tableNext = false
        continue
      }
      frame.tableNext = false
    }
    if (ch === '(') {
      frames.push({ inFrom: false, tableNext: false })
    } else if (ch === ')') {
      if (frames.length > 1) frames.pop()
    } else if (ch === ',') {
      if (frame.inFrom) frame.tableNext = true
    } else if (ch === ';') {
      frames.length = 1
      frames[0] = { inFrom: false, tableNext: false }
    } else {
      const word = at(WORD) ?? at(QUOTED)
      if (word) {
        const w = word[0].toLowerCase()
        if (w === 'from' || w === 'join') {
          frame.inFrom = true
          frame.tableNext = true
        } else if (END_OF_FROM.has(w)) {
          frame.inFrom = false
        }
        out += word[0]
        i += word[0].length
        continue
      }
    }
    out += ch
    i++
  }
  return out
}
