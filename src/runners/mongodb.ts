import { MongoClient, MongoServerError, type AbstractCursor, type Document, type MongoClientOptions, type ReadPreferenceMode } from 'mongodb'
import { BATCH_SIZE, CONNECT_TIMEOUT_MS, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, raceStop, str } from './common.ts'
import { parseMongoQuery } from './mongodb-query.ts'
import { shapeOf } from './mongodb-rows.ts'
import { RunnerError, type Cell, type Runner, type RunnerConfig, type RunOptions, type RunStream, type TableSchema } from './runner.ts'

/*
 * MongoDB through the official driver, with the established tool's JSON query text (mongodb-query.ts). The rows
 * stream from the server's cursor a batch at a time; a cancel, the time limit or a reader stopping early (the row or
 * byte cap) closes the cursor, which ends it in the server (killCursors), and `maxTimeMS` makes the server stop a
 * query that runs past the limit by itself. One driver client (a small pool) per configuration stays warm between
 * runs, shared by the runs of a worker.
 */

/** Documents read before the columns are fixed: a field seen first after them is not shown (the log says so). */
const SAMPLE_DOCUMENTS = 1_000
const CURSOR_BATCH = 1_000
const IDLE_CLIENT_MS = 60_000
/** Collections sampled at once for the schema. */
const SCHEMA_SAMPLERS = 6

const READ_PREFERENCES = ['primaryPreferred', 'primary', 'secondary', 'secondaryPreferred', 'nearest']

function clientOptions(config: RunnerConfig, connectMs: number): MongoClientOptions {
  const username = str(config, 'username')
  const password = config.password == null ? '' : String(config.password)
  const replicaSet = str(config, 'replicaSetName')
  const readPreference = str(config, 'readPreference')
  return {
    appName: 'sightline',
    serverSelectionTimeoutMS: connectMs,
    connectTimeoutMS: connectMs,
    maxPoolSize: 8,
    ...(username && { auth: { username, password } }),
    ...(replicaSet && { replicaSet }),
    ...(READ_PREFERENCES.includes(readPreference) && { readPreference: readPreference as ReadPreferenceMode }),
  }
}

function connectionString(config: RunnerConfig): string {
  const text = str(config, 'connectionString')
  if (!text) throw new RunnerError('MongoDB needs a Connection String (mongodb://host:27017).', 'connection')
  if (!/^mongodb(\+srv)?:\/\//.test(text)) throw new RunnerError('The Connection String must start with mongodb:// or mongodb+srv://.', 'connection')
  return text
}

function dbName(config: RunnerConfig): string {
  const name = str(config, 'dbName')
  if (!name) throw new RunnerError('MongoDB needs a Database Name.', 'connection')
  return name
}

interface WarmClient { client: MongoClient; users: number; timer?: ReturnType<typeof setTimeout> }
const warm = new Map<string, WarmClient>()

/** The configuration's warm client, opened when there is none; `release` lets it close once idle. */
function lease(config: RunnerConfig): { client: MongoClient; release: () => void } {
  const url = connectionString(config)
  const options = clientOptions(config, CONNECT_TIMEOUT_MS)
  const key = JSON.stringify([url, options])
  let entry = warm.get(key)
  if (!entry) {
    let client: MongoClient
    try {
      client = new MongoClient(url, options)
    } catch (e) {
      throw new RunnerError(`The Connection String is not valid: ${errorMessage(e)}`, 'connection')
    }
    warm.set(key, (entry = { client, users: 0 }))
  }
  const held = entry
  clearTimeout(held.timer)
  held.users++
  let released = false
  return {
    client: held.client,
    release() {
      if (released) return
      released = true
      if (--held.users > 0) return
      held.timer = setTimeout(() => {
        if (warm.get(key) === held && held.users === 0) {
          warm.delete(key)
          void held.client.close().catch(() => {})
        }
      }, IDLE_CLIENT_MS)
      held.timer.unref?.()
    },
  }
}

/** Closes every warm client (shutdown, tests). */
export async function closeWarmMongoClients(): Promise<void> {
  const all = [...warm.values()]
  warm.clear()
  for (const entry of all) clearTimeout(entry.timer)
  await Promise.all(all.map((entry) => entry.client.close().catch(() => {})))
}

/** The driver's error as the user should read it: the server's words for a query, the reason a connection failed. */
function translate(e: unknown): RunnerError {
  if (e instanceof RunnerError) return e
  const err = e as { name?: string; code?: number; codeName?: string; message?: string }
  if (err.code === 50 || err.codeName === 'MaxTimeMSExpired') return new RunnerError(`MongoDB stopped the query at the time limit: ${err.message}`, 'timeout')
  if (err.code === 18 || err.code === 13 || /auth/i.test(err.codeName ?? '')) return new RunnerError(`MongoDB refused the credentials: ${err.message}`, 'connection')
  if (e instanceof MongoServerError) return new RunnerError(err.message ?? 'MongoDB refused the query.', 'query')
  if (/ServerSelection|Network|Topology|ParseError|MongoAPIError|MongoInvalidArgument/.test(err.name ?? '')) {
    return new RunnerError(`Could not reach MongoDB: ${err.message}`, 'connection')
  }
  return new RunnerError(errorMessage(e))
}

async function run(config: RunnerConfig, text: string, { signal, timeoutMs }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  const q = parseMongoQuery(text)
  const deep = str(config, 'flatten', 'False').toLowerCase() === 'true'
    const { client, release } = lease(config)
  let cursor: AbstractCursor<Document> | undefined
  // closes one after another: a second close while the first one's killCursors waits for a connection ends the
  // session that killCursors needs, and the driver then drops it silently; a later close kills a cursor whose
  // first batch arrived after the stop
  let closing = Promise.resolve()
  const close = () => (closing = closing.then(() => cursor?.close()).catch(() => {}))
  watch.onStop(async () => {
    await close()
  })
  const fail = (e: unknown) => watch.translate(e, () => false, translate)
  const maxTimeMS = timeoutMs > 0 ? timeoutMs : undefined
  try {
    const collection = client.db(dbName(config)).collection(q.collection)
    if (q.count) {
      const count = await collection.countDocuments(q.query ?? {}, { maxTimeMS, ...(q.skip && { skip: q.skip }), ...(q.limit && { limit: q.limit }) })
      watch.check()
      watch.dispose()
      release()
      return { columns: [{ name: 'count', friendly_name: 'count', type: 'integer' }], log: [], batches: (async function* () { yield [[count]] })() }
    }
    const options = { batchSize: CURSOR_BATCH, maxTimeMS }
    if (q.query || !q.aggregate) {
      let find = collection.find(q.query ?? {}, { ...options, ...(q.fields && { projection: q.fields }) })
      if (q.sort?.length) find = find.sort(q.sort)
      if (q.skip) find = find.skip(q.skip)
      if (q.limit) find = find.limit(q.limit)
      cursor = find
    } else {
      cursor = collection.aggregate(q.aggregate, { ...options, allowDiskUse: q.allowDiskUse })
    }
    const open = cursor
    // the first documents fix the columns; their rows are the first batch
    const sample: Document[] = []
    while (sample.length < SAMPLE_DOCUMENTS && (await raceStop(watch, open.hasNext()))) {
      sample.push(...open.readBufferedDocuments(SAMPLE_DOCUMENTS - sample.length))
      watch.check()
    }
    const shape = shapeOf(sample, deep, q.fields, q.sortColumns)
    const log = sample.length === SAMPLE_DOCUMENTS && open.id && !open.id.isZero()
      ? [`Columns are the fields of the first ${SAMPLE_DOCUMENTS.toLocaleString('en-US')} documents.`] : []
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        if (sample.length) yield sample.splice(0).map((d) => shape.row(d))
        for (;;) {
          watch.check()
          if (!(await raceStop(watch, open.hasNext()))) break
          const docs = open.readBufferedDocuments(BATCH_SIZE)
          yield docs.map((d) => shape.row(d))
        }
        watch.check()
      } catch (e) {
        throw fail(e)
      } finally {
        // a reader that stopped early (row or byte cap) ends the cursor in the server too
        await close()
        watch.dispose()
        release()
      }
    }
    return { columns: shape.columns, log, batches: batches() }
  } catch (e) {
    watch.dispose()
    await close()
    release()
    throw fail(e)
  }
}

/** Each collection (but `system.*`), with the fields of its first and last documents, as the established tool samples. */
async function schema(config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]> {
  const { client, release } = lease(config)
  try {
    const db = client.db(dbName(config))
    const names: string[] = []
    for await (const c of db.listCollections({}, { nameOnly: true, signal })) if (!c.name.startsWith('system.')) names.push(c.name)
    names.sort()
    const sample = async (name: string): Promise<TableSchema> => {
      const fields = new Set<string>()
      for (const natural of [1, -1] as const) {
        const docs = await db.collection(name).find({}, { signal }).sort({ $natural: natural }).limit(1).toArray()
        for (const doc of docs) for (const field of Object.keys(doc)) fields.add(field)
      }
      return { name, columns: [...fields].map((f) => ({ name: f })) }
    }
    // a database of many collections is sampled a few at a time, over the client's pool
    const tables: TableSchema[] = new Array(names.length)
    let next = 0
    await Promise.all(Array.from({ length: Math.min(SCHEMA_SAMPLERS, names.length) }, async () => {
      for (let i = next++; i < names.length; i = next++) tables[i] = await sample(names[i])
    }))
    return tables
  } catch (e) {
    throw translate(e)
  } finally {
    release()
  }
}

export const mongodbRunner: Runner = {
  type: 'mongodb',
  name: 'MongoDB',
  syntax: 'json',
  supportsAutoLimit: false,
  supportsAnnotation: false,
  setupUrl: 'https://www.mongodb.com/docs/manual/reference/connection-string/',
  configurationSchema: {
    type: 'object',
    properties: {
      connectionString: { type: 'string', title: 'Connection String' },
      username: { type: 'string' },
      password: { type: 'string' },
      dbName: { type: 'string', title: 'Database Name' },
      replicaSetName: { type: 'string', title: 'Replica Set Name' },
      readPreference: {
        type: 'string', title: 'Replica Set Read Preference',
        extendedEnum: [
          { value: 'primaryPreferred', name: 'Primary Preferred' }, { value: 'primary', name: 'Primary' },
          { value: 'secondary', name: 'Secondary' }, { value: 'secondaryPreferred', name: 'Secondary Preferred' },
          { value: 'nearest', name: 'Nearest' },
        ],
      },
      flatten: { type: 'string', title: 'Flatten Results', extendedEnum: [{ value: 'False', name: 'False' }, { value: 'True', name: 'True' }], default: 'False' },
    },
    order: ['connectionString', 'username', 'password', 'dbName', 'replicaSetName', 'readPreference', 'flatten'],
    required: ['connectionString', 'dbName'],
    secret: ['password'],
  },

  /** A ping on a client of its own, with a short connect timeout: an unreachable server answers fast. */
  async test(config, signal) {
    const url = connectionString(config)
    const name = dbName(config)
    let client: MongoClient
    try {
      client = new MongoClient(url, clientOptions(config, TEST_CONNECT_TIMEOUT_MS * 3))
    } catch (e) {
      throw new RunnerError(`The Connection String is not valid: ${errorMessage(e)}`, 'connection')
    }
    try {
      await client.db(name).command({ ping: 1 }, { signal })
    } catch (e) {
      if (signal.aborted) throw new RunnerError('Query cancelled by user.', 'cancelled')
      const error = translate(e)
      throw new RunnerError(error.message, 'connection')
    } finally {
      await client.close().catch(() => {})
    }
  },

  schema,
  run,
}
