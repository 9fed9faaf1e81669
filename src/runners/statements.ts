/**
 * A small SQL lexer: enough to find statement boundaries, comments and top-level keywords without parsing SQL.
 * Understands '…' and "…" and `…` quoting, E'…' escapes, $tag$ dollar quoting, -- and (nested) block comments.
 */

export interface Token {
  kind: 'word' | 'string' | 'quoted' | 'number' | 'comment' | 'space' | 'punct' | 'semicolon'
  text: string
  start: number
  end: number
  /** Parenthesis depth the token sits at (0 = top level). */
  depth: number
}

const WORD = /[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*/y
const NUMBER = /\d+(\.\d*)?([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?/y
const SPACE = /\s+/y
const DOLLAR = /\$([A-Za-z_][\w]*)?\$/y

/** Splits `text` into tokens; never throws (an unterminated quote or comment runs to the end). */
export function tokenize(text: string): Token[] {
  const out: Token[] = []
  let i = 0
  let depth = 0
  const push = (kind: Token['kind'], end: number) => {
    out.push({ kind, text: text.slice(i, end), start: i, end, depth })
    i = end
  }
  const match = (re: RegExp) => {
    re.lastIndex = i
    const m = re.exec(text)
    return m ? i + m[0].length : -1
  }
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    let end: number
    if ((end = match(SPACE)) > 0) push('space', end)
    else if (c === '-' && next === '-') {
      const nl = text.indexOf('\n', i)
      push('comment', nl < 0 ? text.length : nl)
    } else if (c === '/' && next === '*') {
      let level = 0
      let j = i
      while (j < text.length) {
        if (text[j] === '/' && text[j + 1] === '*') (level++, (j += 2))
        else if (text[j] === '*' && text[j + 1] === '/') {
          level--
          j += 2
          if (level === 0) break
        } else j++
      }
      push('comment', Math.min(j, text.length))
    } else if (c === "'" || c === '"' || c === '`') {
      const escapes = c === "'" && /[eE]$/.test(text.slice(Math.max(0, i - 1), i))
      let j = i + 1
      while (j < text.length) {
        if (escapes && text[j] === '\\') j += 2
        else if (text[j] === c) {
          if (text[j + 1] === c) j += 2
          else break
        } else j++
      }
      push(c === "'" ? 'string' : 'quoted', Math.min(j + 1, text.length))
    } else if (c === '$' && (end = match(DOLLAR)) > 0) {
      const tag = text.slice(i, end)
      const close = text.indexOf(tag, end)
      push('string', close < 0 ? text.length : close + tag.length)
    } else if ((end = match(WORD)) > 0) push('word', end)
    else if ((end = match(NUMBER)) > 0) push('number', end)
    else if (c === ';') push('semicolon', i + 1)
    else {
      if (c === ')') depth = Math.max(0, depth - 1)
      push('punct', i + 1)
      if (c === '(') depth++
    }
  }
  return out
}

export interface Statement {
  /** The statement's text without the trailing semicolon (leading comments kept). */
  text: string
  tokens: Token[]
  /** Tokens that carry meaning: no spaces or comments. */
  significant: Token[]
}

/** Statements of a script, dropping empty ones (only comments or whitespace). */
export function splitStatements(text: string): Statement[] {
  const out: Statement[] = []
  let current: Token[] = []
  const flush = () => {
    const significant = current.filter((t) => t.kind !== 'space' && t.kind !== 'comment')
    if (significant.length) {
      out.push({ text: text.slice(current[0].start, current[current.length - 1].end).trim(), tokens: current, significant })
    }
    current = []
  }
  for (const token of tokenize(text)) {
    if (token.kind === 'semicolon' && token.depth === 0) flush()
    else current.push(token)
  }
  flush()
  return out
}
