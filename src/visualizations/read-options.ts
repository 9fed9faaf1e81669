/**
 * Reading a visualization's stored options with its type's schema, tolerant of what Sightline does not understand.
 * Options saved by the established tool or its API clients carry values in shapes Sightline's schemas do not take (a
 * table column's `booleanValues: [false, true]`, a funnel's `sortKeyCol: {colName: null}`, a chart type Sightline
 * lacks). Such a value is set aside: it is stored and sent back as given, and drawing uses the key's default instead.
 * Only what drawing cannot do without is refused: options that are not an object, a field that has no default and is
 * missing or unusable (a table column without a name), and values Sightline refuses for safety or size (a colour
 * that is not one, a tile address that is not http(s), a page of 0 rows): those checks are why the schemas exist.
 */
import type { z } from 'zod'

type Path = (string | number)[]

export type OptionsReading =
  | {
    ok: true
    /** What to draw with: the schema's reading, defaults in place of what was set aside. */
    options: Record<string, unknown>
    /** What to store: the same, with each value that was set aside back as it was given. */
    stored: Record<string, unknown>
    /** Where values were set aside. */
    setAside: Path[]
  }
  | { ok: false; path: Path; message: string }

/** Issue kinds that mean "a shape or a choice this schema does not know", as opposed to a refused value. */
const NOT_UNDERSTOOD = new Set(['invalid_type', 'invalid_value', 'invalid_union', 'invalid_key', 'invalid_element'])

/** Enough for the deepest options any type has (each round sets aside one level more where needed). */
const MAX_ROUNDS = 16

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const startsWith = (path: Path, prefix: Path) => prefix.length <= path.length && prefix.every((p, i) => path[i] === p)
const toPath = (path: readonly PropertyKey[]): Path => path.map((p) => (typeof p === 'number' ? p : String(p)))

function valueAt(root: unknown, path: Path): unknown {
  let at = root
  for (const key of path) {
    if (isObject(at) && typeof key === 'string') at = Object.hasOwn(at, key) ? at[key] : undefined
    else if (Array.isArray(at) && typeof key === 'number') at = at[key]
    else return undefined
  }
  return at
}

/** A copy of `root` without the property at `path`; only the objects and arrays on the way are copied. */
function without(root: unknown, path: Path): unknown {
  const [key, ...rest] = path
  if (isObject(root) && typeof key === 'string') {
    const copy = { ...root }
    if (rest.length) copy[key] = without(root[key], rest)
    else delete copy[key]
    return copy
  }
  if (Array.isArray(root) && typeof key === 'number' && rest.length) {
    const copy = [...root]
    copy[key] = without(root[key], rest)
    return copy
  }
  return root
}

/** Puts `value` at `path` in `root` (a fresh parse result, so changing it in place is safe) when its parent is an object. */
function putBack(root: unknown, path: Path, value: unknown) {
  const parent = valueAt(root, path.slice(0, -1))
  const key = path.at(-1)
  if (isObject(parent) && typeof key === 'string') parent[key] = value
}

/**
 * The property to set aside for an issue: the deepest object key on its path (a tuple's element is set aside with
 * the whole tuple), or, when that was set aside already and its default does not do either, the next key up. Never
 * past an array's element: dropping a column would change what the rest of the options mean.
 */
function keyToSetAside(path: Path, already: Path[]): Path | undefined {
  const done = already.filter((p) => startsWith(path, p)).sort((a, b) => b.length - a.length)[0]
  let end = done ? done.length - 1 : path.length
  while (end > 0 && typeof path[end - 1] === 'number') {
    if (done) return undefined
    end--
  }
  return end > 0 ? path.slice(0, end) : undefined
}

export function readOptions(schema: z.ZodType, raw: unknown): OptionsReading {
  if (!isObject(raw)) return { ok: false, path: [], message: 'Options must be an object.' }
  let work: unknown = raw
  const setAside: Path[] = []
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const parsed = schema.safeParse(work)
    if (parsed.success) {
      const options = parsed.data as Record<string, unknown>
      const stored = structuredClone(options)
      for (const path of setAside) putBack(stored, path, valueAt(raw, path))
      return { ok: true, options, stored, setAside }
    }
    const chosen: Path[] = []
    for (const issue of parsed.error.issues) {
      const path = toPath(issue.path)
      const again = setAside.some((p) => startsWith(path, p))
      const present = valueAt(work, path) !== undefined
      const key = (again || (present && NOT_UNDERSTOOD.has(issue.code))) ? keyToSetAside(path, setAside) : undefined
      if (!key || valueAt(raw, key) === undefined) return { ok: false, path, message: issue.message }
      chosen.push(key)
    }
    for (const key of chosen) {
      work = without(work, key)
      for (let i = setAside.length - 1; i >= 0; i--) if (startsWith(setAside[i], key)) setAside.splice(i, 1)
      setAside.push(key)
    }
  }
  return { ok: false, path: [], message: 'Options could not be read.' }
}
