/**
 * The SQL text inside TypeScript sources, for checks on what is sent to PostgreSQL: the literal parts of tagged
 * templates (`db\`…\``, `tx<Row[]>\`…\``, `this.sql\`…\``) and the string given to `.unsafe(…)`. A small lexer, not a
 * parser: it knows comments, strings, regular expressions and nested `${…}`, which is all these sources need.
 */

/** Numbers written with digit separators (`1_000`), outside comments, string literals and quoted identifiers. */
export function digitSeparatedNumbers(sql: string): string[] {
  const code = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
  return [...code.matchAll(/(?<![\w.$])\d+(?:_\d+)+(?:\.\d+(?:_\d+)*)?(?![\w])/g)].map((m) => m[0])
}

const IDENT = /[A-Za-z_$][\w$]*$/

/** The tag before a template literal that starts at `at`, or undefined for an untagged one. */
function tagBefore(source: string, at: number): string | undefined {
  let end = at
  while (end > 0 && /\s/.test(source[end - 1])) end--
  let head = source.slice(0, end)
  if (head.endsWith('>')) {
    // type arguments: tx<{ n: number }[]>`…`
    let depth = 0
    let i = head.length - 1
    for (; i >= 0; i--) {
      if (head[i] === '>') depth++
      else if (head[i] === '<' && --depth === 0) break
    }
    if (i < 0) return undefined
    head = head.slice(0, i)
  }
  const ident = IDENT.exec(head)?.[0]
  if (!ident || ['return', 'typeof', 'await', 'yield', 'case', 'in', 'of', 'new', 'void', 'delete'].includes(ident)) return undefined
  return ident
}

const REGEX_FOLLOWS = /[(,=:[!&|?{};+\-*%<>~^]$|^$|\b(?:return|typeof|case|in|of|void|yield|await)$/

/** Lexes `source` from `start`; stops at an unmatched `}` (the end of a `${`) and returns its position. */
function lex(source: string, start: number, found: string[], isSql: (tag: string) => boolean): number {
  let i = start
  let depth = 0
  while (i < source.length) {
    const c = source[i]
    if (c === '/' && source[i + 1] === '/') i = skipTo(source, i, '\n')
    else if (c === '/' && source[i + 1] === '*') i = source.indexOf('*/', i + 2) < 0 ? source.length : source.indexOf('*/', i + 2) + 2
    else if (c === "'" || c === '"') {
      const end = quotedEnd(source, i)
      if (end < 0) i++ // a quote in JSX text: not a string
      else {
        if (/\.unsafe\(\s*$/.test(source.slice(Math.max(0, i - 40), i))) found.push(source.slice(i + 1, end))
        i = end + 1
      }
    } else if (c === '`') {
      const tag = tagBefore(source, i)
      const sql = (tag !== undefined && isSql(tag)) || /\.unsafe\(\s*$/.test(source.slice(Math.max(0, i - 40), i))
      i = template(source, i + 1, sql ? found : undefined, found, isSql)
    } else if (c === '/' && REGEX_FOLLOWS.test(source.slice(Math.max(0, i - 10), i).trimEnd())) i = regexEnd(source, i)
    else if (c === '{') (depth++, i++)
    else if (c === '}') {
      if (depth === 0) return i
      depth--
      i++
    } else i++
  }
  return i
}

function skipTo(source: string, i: number, text: string): number {
  const at = source.indexOf(text, i)
  return at < 0 ? source.length : at
}

/** The closing quote of a one-line string, or -1 when the line ends first. */
function quotedEnd(source: string, i: number): number {
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === '\\') j++
    else if (source[j] === source[i]) return j
    else if (source[j] === '\n') return -1
  }
  return -1
}

function regexEnd(source: string, i: number): number {
  let inClass = false
  for (let j = i + 1; j < source.length; j++) {
    const c = source[j]
    if (c === '\\') j++
    else if (c === '[') inClass = true
    else if (c === ']') inClass = false
    else if (c === '/' && !inClass) return j + 1
    else if (c === '\n') return i + 1 // a division after all
  }
  return source.length
}

/** Reads a template literal's body from `i` (just past the backtick); keeps its literal text when `into` is given. */
function template(source: string, i: number, into: string[] | undefined, found: string[], isSql: (tag: string) => boolean): number {
  let text = ''
  while (i < source.length) {
    const c = source[i]
    if (c === '\\') (text += source.slice(i, i + 2), i += 2)
    else if (c === '`') {
      into?.push(text)
      return i + 1
    } else if (c === '$' && source[i + 1] === '{') {
      text += ' $1 ' // a parameter: a value, never SQL text
      i = lex(source, i + 2, found, isSql) + 1
    } else (text += c, i++)
  }
  into?.push(text)
  return i
}

/** Tags whose templates are SQL: postgres.js's `sql`, `db`, `tx` and the like, however the caller names them. */
const SQL_TAG = /^(?:sql|db|tx|trx|sp|admin|holder|conn)$|(?:Sql|sql|Db|Tx)$/

/** The SQL text of a TypeScript source: each tagged template's literal parts and each `.unsafe(…)` string. */
export function sqlInSource(source: string, isSql: (tag: string) => boolean = (tag) => SQL_TAG.test(tag)): string[] {
  const found: string[] = []
  let i = 0
  while (i < source.length) i = lex(source, i, found, isSql) + 1
  return found
}
