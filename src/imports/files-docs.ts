import yaml from 'js-yaml'

/**
 * The files of a git export, one per object, named by its stable key: `queries/<key>.sql` (a YAML header in `-- `
 * comment lines, then the query text), and `<kind>/<key>.yaml` for the other kinds. A document is built by one
 * builder per kind whether it comes from the store or from a file, so "unchanged" is "the same text".
 */
export const FILE_KINDS = ['queries', 'dashboards', 'alerts', 'destinations', 'snippets', 'groups'] as const
export type FileKind = (typeof FILE_KINDS)[number]
export type Json = Record<string, unknown>

/** What a key may be: what Sightline gives (a slug, maybe with a number), or a name a person chose alike. */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/

export class FileError extends Error {
  constructor(message: string, readonly line?: number) {
    super(message)
  }
}

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)

/** Objects with their keys in order, at every depth (arrays keep theirs), so a file never changes by itself. */
export function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep)
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().filter((k) => v[k] !== undefined).map((k) => [k, sortedDeep(v[k])]))
  return v
}

/** A document without its empty fields (a person reads only what is set). */
export function compact(doc: Json): Json {
  return Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && !v.length) && !(isObj(v) && !Object.keys(v).length) && v !== ''))
}

export const dumpYaml = (doc: Json) => yaml.dump(doc, { lineWidth: -1, noRefs: true, sortKeys: false })

/** The same rule as the store's `object_key_slug`: the key of a visualization within its query. */
export const slugKey = (name: string, fallback: string) =>
  name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 60).replace(/^-+|-+$/g, '') || fallback

/** Keys of a query's visualizations, unique within it, in their order. */
export function localKeys(names: string[]): string[] {
  const seen = new Set<string>()
  return names.map((name) => {
    const base = slugKey(name, 'visualization')
    let key = base
    for (let n = 2; seen.has(key); n++) key = `${base}-${n}`
    seen.add(key)
    return key
  })
}

const HEADER_MARK = '-- ---'

/** A query file: the header's YAML behind `-- `, between two `-- ---` lines, then the text and one newline. */
export function queryFile(header: Json, text: string): string {
  const lines = dumpYaml(header).replace(/\n$/, '').split('\n').map((l) => `-- ${l}`)
  return [HEADER_MARK, ...lines, HEADER_MARK, text].join('\n') + '\n'
}

function parseYaml(content: string, lineOffset: number): unknown {
  try {
    return yaml.load(content, { schema: yaml.JSON_SCHEMA })
  } catch (error) {
    if (error instanceof yaml.YAMLException) throw new FileError(`malformed YAML: ${error.reason}`, (error.mark?.line ?? 0) + 1 + lineOffset)
    throw error
  }
}

export function readYamlFile(content: string): Json {
  const doc = parseYaml(content, 0)
  if (!isObj(doc)) throw new FileError('the file must hold a YAML mapping (name: …)', 1)
  return doc
}

/** A query file's header and text, and the line its text starts on (for messages about the text). */
export function readQueryFile(content: string): { header: Json; text: string; textLine: number } {
  const lines = content.replace(/\r\n/g, '\n').split('\n')
  if (lines[0] !== HEADER_MARK) throw new FileError(`the file must start with a "${HEADER_MARK}" line, then the header in "-- " lines`, 1)
  const end = lines.indexOf(HEADER_MARK, 1)
  if (end < 0) throw new FileError(`the header has no closing "${HEADER_MARK}" line`, lines.length)
  const header = lines.slice(1, end).map((l, i) => {
    if (l === '--') return ''
    if (!l.startsWith('-- ')) throw new FileError('every header line starts with "-- "', i + 2)
    return l.slice(3)
  })
  const doc = parseYaml(header.join('\n'), 1)
  if (!isObj(doc)) throw new FileError('the header must be a YAML mapping (name: …)', 2)
  const text = lines.slice(end + 1).join('\n')
  return { header: doc, text: text.endsWith('\n') ? text.slice(0, -1) : text, textLine: end + 2 }
}

/** Where each kind's files are, and the file of a key. */
export const fileName = (kind: FileKind, key: string) => `${kind}/${key}.${kind === 'queries' ? 'sql' : 'yaml'}`

export function parsePath(path: string): { kind: FileKind; key: string } | null {
  const m = /^([a-z]+)\/([^/]+)\.(sql|yaml|yml)$/.exec(path.replace(/^\.\//, ''))
  if (!m || !(FILE_KINDS as readonly string[]).includes(m[1])) return null
  const kind = m[1] as FileKind
  if ((kind === 'queries') !== (m[3] === 'sql')) return null
  return { kind, key: m[2] }
}

/** Reading a field of a document: its type checked, its name in the message. */
export const field = {
  text(doc: Json, name: string, o: { required?: boolean; max?: number } = {}): string {
    const v = doc[name]
    if (v === undefined || v === null) {
      if (o.required) throw new FileError(`${name}: this field is required`)
      return ''
    }
    if (typeof v !== 'string' && typeof v !== 'number') throw new FileError(`${name}: must be text`)
    const s = String(v)
    if (o.required && !s.trim()) throw new FileError(`${name}: this field is required`)
    if (o.max && s.length > o.max) throw new FileError(`${name}: at most ${o.max} characters`)
    return s
  },
  bool(doc: Json, name: string, fallback: boolean): boolean {
    const v = doc[name]
    if (v === undefined || v === null) return fallback
    if (typeof v !== 'boolean') throw new FileError(`${name}: must be true or false`)
    return v
  },
  int(doc: Json, name: string, min: number): number | null {
    const v = doc[name]
    if (v === undefined || v === null) return null
    if (!Number.isInteger(v) || (v as number) < min) throw new FileError(`${name}: must be a whole number of at least ${min}`)
    return v as number
  },
  object(doc: Json, name: string): Json {
    const v = doc[name]
    if (v === undefined || v === null) return {}
    if (!isObj(v)) throw new FileError(`${name}: must be a mapping`)
    return v
  },
  list(doc: Json, name: string): unknown[] {
    const v = doc[name]
    if (v === undefined || v === null) return []
    if (!Array.isArray(v)) throw new FileError(`${name}: must be a list`)
    return v
  },
  texts(doc: Json, name: string): string[] {
    return field.list(doc, name).map((t, i) => {
      if (typeof t !== 'string' && typeof t !== 'number') throw new FileError(`${name}[${i}]: must be text`)
      return String(t)
    })
  },
}

export { isObj }
