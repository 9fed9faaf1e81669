import net from 'node:net'
import { deserialize, EJSON, Long, ObjectId, serialize, type Document } from 'bson'

/*
 * A MongoDB server as small as the driver lets it be, written from the wire protocol's documentation
 * (mongodb.com/docs/manual/reference/mongodb-wire-protocol): a real TCP listener answering OP_MSG — hello, ping,
 * find, aggregate, getMore, listCollections, killCursors, endSessions, saslStart — and the legacy OP_QUERY `hello`
 * the driver opens a connection with (answered with OP_REPLY). Documents are encoded with `bson`, the driver's own
 * library. Filters know the comparison operators; pipelines know $match, $sort, $skip, $limit, $project, $group
 * and $count; anything else is refused with the server's error, as a real one refuses it.
 */

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013
const MORE_TO_COME = 2
const CHECKSUM = 1

export interface FakeMongoOptions {
  /** Collections by name, in the fake's database `shop` (any database name is answered from them). */
  collections: Record<string, Document[] | (() => Iterable<Document>)>
  /** When set, every connection must authenticate, and every attempt is refused (as with an expired password). */
  refuseAuth?: boolean
  /**
   * A recorded conversation (test/fixtures/mongodb/): each query command (find, aggregate, getMore, killCursors,
   * listCollections) must be the next one recorded — the fields the recording names, compared as relaxed Extended
   * JSON — and is answered with the recorded reply, read as canonical Extended JSON so its types are the server's.
   */
  recorded?: RecordedExchange[]
}

export interface RecordedExchange { command: Document; reply: Document }

const RECORDED_COMMANDS = new Set(['find', 'aggregate', 'getMore', 'killCursors', 'listCollections'])

interface Cursor { id: number; collection: string; docs: Iterator<Document>; next?: IteratorResult<Document> }

class Refusal extends Error {
  constructor(readonly code: number, readonly codeName: string, message: string) {
    super(message)
  }
}

const get = (doc: Document, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Document)[k] : undefined), doc)

function key(v: unknown): number | string {
  if (v instanceof Date) return v.getTime()
  if (v instanceof ObjectId) return v.toHexString()
  if (v instanceof Long) return v.toNumber()
  return v as number | string
}

function compare(a: unknown, b: unknown): number {
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : -1
  if (b === undefined || b === null) return 1
  const x = key(a)
  const y = key(b)
  return x < y ? -1 : x > y ? 1 : 0
}

function matchValue(value: unknown, condition: unknown): boolean {
  const isOperators = condition && typeof condition === 'object' && !(condition instanceof Date) && !(condition instanceof ObjectId) &&
    !Array.isArray(condition) && Object.keys(condition).every((k) => k.startsWith('$'))
  if (!isOperators) return compare(value, condition) === 0 && (value === undefined) === (condition === undefined)
  return Object.entries(condition as Document).every(([op, arg]) => {
    switch (op) {
      case '$eq': return compare(value, arg) === 0
      case '$ne': return compare(value, arg) !== 0
      case '$gt': return value != null && compare(value, arg) > 0
      case '$gte': return value != null && compare(value, arg) >= 0
      case '$lt': return value != null && compare(value, arg) < 0
      case '$lte': return value != null && compare(value, arg) <= 0
      case '$in': return (arg as unknown[]).some((a) => compare(value, a) === 0)
      case '$nin': return !(arg as unknown[]).some((a) => compare(value, a) === 0)
      case '$exists': return (value !== undefined) === Boolean(arg)
      default: throw new Refusal(2, 'BadValue', `unknown operator: ${op}`)
    }
  })
}

function matches(doc: Document, filter: Document = {}): boolean {
  return Object.entries(filter).every(([k, cond]) => {
    if (k === '$and') return (cond as Document[]).every((f) => matches(doc, f))
    if (k === '$or') return (cond as Document[]).some((f) => matches(doc, f))
    if (k.startsWith('$')) throw new Refusal(2, 'BadValue', `unknown top level operator: ${k}`)
    return matchValue(get(doc, k), cond)
  })
}

function sorted(docs: Document[], sort: Document | undefined): Document[] {
  if (!sort || !Object.keys(sort).length) return docs
  if ('$natural' in sort) return sort.$natural < 0 ? [...docs].reverse() : docs
  const keys = Object.entries(sort)
  return [...docs].sort((a, b) => {
    for (const [k, d] of keys) {
      const c = compare(get(a, k), get(b, k))
      if (c) return c * (Number(d) < 0 ? -1 : 1)
    }
    return 0
  })
}

function project(doc: Document, projection: Document | undefined): Document {
  if (!projection || !Object.keys(projection).length) return doc
  const including = Object.entries(projection).some(([k, v]) => k !== '_id' && v)
  if (!including) return Object.fromEntries(Object.entries(doc).filter(([k]) => projection[k] === undefined || projection[k]))
  const out: Document = {}
  if (projection._id !== 0 && projection._id !== false && '_id' in doc) out._id = doc._id
  for (const [k, v] of Object.entries(projection)) if (v && k !== '_id' && get(doc, k) !== undefined) out[k] = get(doc, k)
  return out
}

const fieldValue = (doc: Document, expr: unknown) => (typeof expr === 'string' && expr.startsWith('$') ? get(doc, expr.slice(1)) : expr)

function group(docs: Document[], spec: Document): Document[] {
  const groups = new Map<string, Document>()
  for (const doc of docs) {
    const id = fieldValue(doc, spec._id) ?? null
    const k = JSON.stringify(key(id))
    let g = groups.get(k)
    if (!g) groups.set(k, (g = { _id: id }))
    for (const [name, acc] of Object.entries(spec)) {
      if (name === '_id') continue
      const [op, expr] = Object.entries(acc as Document)[0]
      const v = Number(fieldValue(doc, expr) ?? 0)
      if (op === '$sum') g[name] = (g[name] ?? 0) + v
      else if (op === '$max') g[name] = g[name] === undefined ? v : Math.max(g[name], v)
      else if (op === '$min') g[name] = g[name] === undefined ? v : Math.min(g[name], v)
      else throw new Refusal(15952, 'Location15952', `unknown group operator '${op}'`)
    }
  }
  return [...groups.values()]
}

function pipeline(docs: Document[], stages: Document[]): Document[] {
  for (const stage of stages) {
    const [name, arg] = Object.entries(stage)[0]
    switch (name) {
      case '$match': docs = docs.filter((d) => matches(d, arg)); break
      case '$sort': docs = sorted(docs, arg); break
      case '$skip': docs = docs.slice(arg); break
      case '$limit': docs = docs.slice(0, arg); break
      case '$project': docs = docs.map((d) => project(d, arg)); break
      case '$group': docs = group(docs, arg); break
      case '$count': docs = [{ [arg]: docs.length }]; break
      default: throw new Refusal(40324, 'Location40324', `Unrecognized pipeline stage name: '${name}'`)
    }
  }
  return docs
}

export interface FakeMongo {
  port: number
  url: string
  /** Every command received, by name, with its body. */
  commands: Document[]
  /** With a recorded conversation: what was sent of each recorded command, and whether every exchange happened. */
  recording: { sent: Document[]; done(): boolean }
  /** Whether a cursor over `collection` is open in the server. */
  openCursors(collection?: string): number
  close(): Promise<void>
}

export async function fakeMongo(options: FakeMongoOptions): Promise<FakeMongo> {
  const cursors = new Map<number, Cursor>()
  const commands: Document[] = []
  let nextCursor = 1000
  let nextRequest = 1
  let connections = 0
  const sockets = new Set<net.Socket>()
  let replayed = 0
  /** What each recorded command was sent as: the fields the recording names, as relaxed Extended JSON. */
  const sent: Document[] = []

  function replay(name: string, command: Document): Document {
    const exchange = options.recorded![replayed++]
    if (!exchange) return { ok: 0, code: 8000, codeName: 'RecordingEnded', errmsg: `the recorded conversation has ended (got ${name})` }
    sent.push(Object.fromEntries(Object.keys(exchange.command).map((k) => [k, EJSON.serialize(command[k], { relaxed: true })])))
    return EJSON.deserialize(exchange.reply, { relaxed: false })
  }

  const docsOf = (name: string): Document[] => {
    const c = options.collections[name]
    return c === undefined ? [] : typeof c === 'function' ? [...c()] : c
  }

  function batch(cursor: Cursor, size: number | undefined, first: boolean, ns: string): Document {
    const n = size && size > 0 ? size : first ? 101 : 1000
    const part: Document[] = []
    cursor.next ??= cursor.docs.next()
    while (part.length < n && !cursor.next.done) {
      part.push(cursor.next.value)
      cursor.next = cursor.docs.next()
    }
    const done = !!cursor.next.done
    if (done) cursors.delete(cursor.id)
    return { cursor: { id: Long.fromNumber(done ? 0 : cursor.id), ns, [first ? 'firstBatch' : 'nextBatch']: part }, ok: 1 }
  }

  function open(collection: string, docs: Iterable<Document>, size: number | undefined, ns: string): Document {
    const cursor: Cursor = { id: nextCursor++, collection, docs: docs[Symbol.iterator]() }
    cursors.set(cursor.id, cursor)
    return batch(cursor, size, true, ns)
  }

  function hello(connectionId: number): Document {
    return {
      helloOk: true, isWritablePrimary: true, ismaster: true, maxBsonObjectSize: 16 * 1024 * 1024, maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000, localTime: new Date(), logicalSessionTimeoutMinutes: 30, connectionId, minWireVersion: 0,
      maxWireVersion: 21, readOnly: false, ok: 1,
    }
  }

  function answer(command: Document, connectionId: number): Document {
    const name = Object.keys(command)[0]
    commands.push({ name, ...command })
    const db = String(command.$db ?? 'admin')
    if (options.recorded && RECORDED_COMMANDS.has(name)) return replay(name, command)
    switch (name) {
      case 'hello': case 'isMaster': case 'ismaster': return hello(connectionId)
      case 'ping': case 'endSessions': return { ok: 1 }
      case 'saslStart': return { ok: 0, code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' }
      case 'find': {
        const plain = !Object.keys(command.filter ?? {}).length && !command.sort && !command.skip && !command.limit && !command.projection
        const source = options.collections[command.find]
        // a whole collection given as a generator is streamed, never held (the benchmark's million documents)
        if (plain && typeof source === 'function') return open(command.find, source(), command.batchSize, `${db}.${command.find}`)
        const docs = sorted(docsOf(command.find).filter((d) => matches(d, command.filter)), command.sort)
          .slice(command.skip ?? 0, command.limit ? (command.skip ?? 0) + command.limit : undefined)
          .map((d) => project(d, command.projection))
        return open(command.find, docs, command.batchSize, `${db}.${command.find}`)
      }
      case 'aggregate': return open(command.aggregate, pipeline(docsOf(command.aggregate), command.pipeline ?? []), command.cursor?.batchSize, `${db}.${command.aggregate}`)
      case 'getMore': {
        const cursor = cursors.get(key(command.getMore) as number)
        if (!cursor) return { ok: 0, code: 43, codeName: 'CursorNotFound', errmsg: `cursor id ${String(command.getMore)} not found` }
        return batch(cursor, command.batchSize, false, `${db}.${cursor.collection}`)
      }
      case 'killCursors': {
        const ids = (command.cursors as unknown[]).map((c) => key(c) as number)
        for (const id of ids) cursors.delete(id)
        return { cursorsKilled: ids.map((id) => Long.fromNumber(id)), cursorsNotFound: [], cursorsAlive: [], cursorsUnknown: [], ok: 1 }
      }
      case 'listCollections': {
        const names = Object.keys(options.collections).map((n) => ({ name: n, type: 'collection', options: {}, info: { readOnly: false } }))
        return open('$cmd.listCollections', names, command.cursor?.batchSize, `${db}.$cmd.listCollections`)
      }
      default: return { ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: `no such command: '${name}'` }
    }
  }

  function reply(socket: net.Socket, responseTo: number, opCode: number, body: Buffer) {
    const header = Buffer.alloc(16)
    header.writeInt32LE(16 + body.length, 0)
    header.writeInt32LE(nextRequest++, 4)
    header.writeInt32LE(responseTo, 8)
    header.writeInt32LE(opCode, 12)
    socket.write(Buffer.concat([header, body]))
  }

  function handle(socket: net.Socket, message: Buffer, connectionId: number) {
    const requestId = message.readInt32LE(4)
    const opCode = message.readInt32LE(12)
    const safely = (command: Document) => {
      try {
        if (options.refuseAuth && !['hello', 'isMaster', 'ismaster', 'saslStart', 'endSessions'].includes(Object.keys(command)[0])) {
          return { ok: 0, code: 13, codeName: 'Unauthorized', errmsg: `command ${Object.keys(command)[0]} requires authentication` }
        }
        return answer(command, connectionId)
      } catch (e) {
        if (e instanceof Refusal) return { ok: 0, code: e.code, codeName: e.codeName, errmsg: e.message }
        throw e
      }
    }
    if (opCode === OP_QUERY) {
      const nameEnd = message.indexOf(0, 20)
      const query = deserialize(message.subarray(nameEnd + 9))
      const doc = serialize(safely(query))
      const body = Buffer.alloc(20)
      body.writeInt32LE(8, 0) // AwaitCapable
      body.writeInt32LE(1, 16) // numberReturned; cursor id and startingFrom are 0
      reply(socket, requestId, OP_REPLY, Buffer.concat([body, doc]))
      return
    }
    if (opCode !== OP_MSG) return socket.destroy()
    const flags = message.readUInt32LE(16)
    const end = message.length - (flags & CHECKSUM ? 4 : 0)
    let command: Document = {}
    for (let at = 20; at < end;) {
      const kind = message[at]
      if (kind === 0) {
        const size = message.readInt32LE(at + 1)
        command = { ...deserialize(message.subarray(at + 1, at + 1 + size)), ...command }
        at += 1 + size
      } else {
        const size = message.readInt32LE(at + 1)
        const idEnd = message.indexOf(0, at + 5)
        const id = message.toString('utf8', at + 5, idEnd)
        const docs: Document[] = []
        for (let d = idEnd + 1; d < at + 1 + size;) {
          const docSize = message.readInt32LE(d)
          docs.push(deserialize(message.subarray(d, d + docSize)))
          d += docSize
        }
        command[id] = docs
        at += 1 + size
      }
    }
    const answerDoc = safely(command)
    if (flags & MORE_TO_COME) return
    reply(socket, requestId, OP_MSG, Buffer.concat([Buffer.alloc(5), serialize(answerDoc)]))
  }

  const server = net.createServer((socket) => {
    const connectionId = ++connections
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let pending = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const size = pending.readInt32LE(0)
        handle(socket, pending.subarray(0, size), connectionId)
        pending = pending.subarray(size)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    port,
    url: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    commands,
    recording: { sent, done: () => replayed === (options.recorded?.length ?? 0) },
    openCursors: (collection) => [...cursors.values()].filter((c) => !collection || c.collection === collection).length,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    }),
  }
}
