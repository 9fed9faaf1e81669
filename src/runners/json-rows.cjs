// @ts-check
'use strict'
/*
 * One JSON-source answer turned into rows: decode, parse, take the value at the path, flatten items one level.
 * Plain JavaScript so that the same code runs on the main thread (small answers) and, unchanged, in a worker thread
 * (large ones) under Node, tsx, Vitest and Deno alike, with no TypeScript loader in the thread.
 * json-rows-thread.ts decides where it runs.
 */

/** An answer that cannot become rows; its message is for the user. */
class Refused extends Error {}

/** The value at a dot path (`data.items`, `results.0.rows`). */
function at(value, path) {
  if (!path) return value
  let v = value
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined
    v = v[key]
  }
  return v
}

/**
 * The items of one answer, and the next page's URL or token (null when there is none).
 * @param {Uint8Array} bytes
 * @param {{ url: string, path?: string, nextPath?: string }} spec
 */
function readPage(bytes, spec) {
  const text = new TextDecoder().decode(bytes)
  if (!text.trim()) throw new Refused(`Got empty response from '${spec.url}'.`)
  let doc
  try {
    doc = JSON.parse(text)
  } catch {
    throw new Refused(`The response from '${spec.url}' is not JSON: ${text.slice(0, 200)}`)
  }
  let items = at(doc, spec.path)
  if (items === undefined) throw new Refused(`The response has nothing at path '${spec.path}'.`)
  if (!Array.isArray(items)) items = [items]
  const next = spec.nextPath ? at(doc, spec.nextPath) : null
  return { items, next: next === undefined || next === null || next === '' ? null : String(next) }
}

/**
 * Rows being built for one page: `names` in order of first appearance, each row an array by name index (shorter
 * than `names` when later rows brought new names).
 * @param {string[] | undefined} fields
 */
function newPage(fields) {
  return { keep: fields ? new Set(fields) : null, names: /** @type {string[]} */ ([]), index: new Map(), rows: /** @type {unknown[][]} */ ([]) }
}

/**
 * Items `from`..`to` as rows: objects flattened one level (`key.inner`), keeping only `fields` when given
 * (reference §8.3); anything else is one `value` column. A name seen twice in one item keeps the later value.
 * @param {unknown[]} items @param {number} from @param {number} to @param {ReturnType<typeof newPage>} page
 */
function flattenItems(items, from, to, page) {
  const { keep, names, index, rows } = page
  for (let i = from; i < to; i++) {
    const item = items[i]
    const row = new Array(names.length).fill(null)
    const add = (/** @type {string} */ name, /** @type {string} */ parent, /** @type {unknown} */ value) => {
      if (keep && !keep.has(parent) && !keep.has(name)) return
      let k = index.get(name)
      if (k === undefined) {
        k = names.length
        names.push(name)
        index.set(name, k)
      }
      row[k] = value
    }
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      for (const [key, value] of Object.entries(item)) {
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          for (const [inner, v] of Object.entries(value)) add(`${key}.${inner}`, key, v)
        } else add(key, key, value)
      }
    } else add('value', 'value', item)
    rows.push(row)
  }
}

/** Rows `from`..`to`, each as wide as the page's names (null where a row has no value). */
function paddedRows(/** @type {ReturnType<typeof newPage>} */ page, /** @type {number} */ from, /** @type {number} */ to) {
  const width = page.names.length
  const out = page.rows.slice(from, to)
  for (const row of out) while (row.length < width) row.push(null)
  return out
}

/**
 * The worker thread's side. The main thread sends the body's chunks as they arrive and then 'end'; the thread reads
 * and flattens the whole page and sends its names; then it sends one slice of rows each time the main thread asks
 * with 'more' (so the main thread takes them one turn at a time). The main thread terminates it when it is done.
 * @param {{ spec: { url: string, path?: string, fields?: string[], nextPath?: string }, cellsPerSlice: number }} data
 * @param {import('node:worker_threads').MessagePort} port
 */
function serveThread(data, port) {
  /** @type {Uint8Array[]} */
  let chunks = []
  let size = 0
  /** @type {ReturnType<typeof newPage>} */
  let page
  let perSlice = 1
  let from = 0
  const read = () => {
    const body = new Uint8Array(size)
    for (let i = 0, at = 0; i < chunks.length; at += chunks[i].byteLength, i++) body.set(chunks[i], at)
    chunks = []
    const { items, next } = readPage(body, data.spec)
    page = newPage(data.spec.fields)
    flattenItems(items, 0, items.length, page)
    perSlice = Math.max(1, Math.floor(data.cellsPerSlice / Math.max(1, page.names.length)))
    port.postMessage({ type: 'page', names: page.names, next, count: page.rows.length })
  }
  port.on('message', (m) => {
    if (m instanceof Uint8Array) {
      chunks.push(m)
      size += m.byteLength
    } else if (m === 'end') {
      try {
        read()
      } catch (e) {
        port.postMessage({ type: e instanceof Refused ? 'refused' : 'error', message: e instanceof Error ? e.message : String(e) })
      }
    } else if (m === 'more') {
      const to = Math.min(from + perSlice, page.rows.length)
      port.postMessage({ type: 'rows', rows: paddedRows(page, from, to) })
      from = to
    }
  })
}

module.exports = { Refused, at, readPage, newPage, flattenItems, paddedRows, serveThread }
