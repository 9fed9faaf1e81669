/**
 * Guards in postgres.js 3.4.x for Sightline's database going away under load, applied by `npm install` (postinstall).
 * Each bites only when a connection dies; none is in a release yet.
 *
 * connection.js, the write scheduler (upstream porsager/postgres#1154, #1066, #1208; fixes proposed in #1168, #1176
 * and #1209):
 *   - a small write is deferred with setImmediate; when the connection closes first, the deferred write calls
 *     `socket.write` on null and the TypeError, thrown outside any query, ends the whole process;
 *   - closing or ending a connection clears that timer without forgetting it, so the connection, once reconnected,
 *     never sends anything again (its start-up message waits behind the stale timer until connect_timeout).
 * connection.js, a reconnected session (seen in Sightline's database-outage test, upstream #1186 is of the family):
 *   - what the dead socket left behind (the query in flight, the error the server sent before closing) survives the
 *     reconnect, and the new session's first ReadyForQuery settles the query that connection was reopened for with
 *     the dead one's error (`57P01`, terminating connection), or attributes answers to the wrong query.
 * index.js, a transaction whose connection died (upstream #1186):
 *   - the transaction goes on sending on that connection (its ROLLBACK, its queued statements), which the pool has
 *     meanwhile reopened for another caller's query: their bytes land in the new session and its caller fails.
 *     Once the connection has closed, the transaction's statements, queued and new, fail with its error instead.
 * Idempotent. When the driver's code is no longer what this expects (a release that changed or fixed it), it says so
 * and changes that file in nothing. `node scripts/patch-postgres.ts`; test/faults/driver-reconnect.test.ts checks it.
 */
import fs from 'node:fs'
import path from 'node:path'

interface Patch {
  file: 'connection.js' | 'index.js'
  mark: string
  /** Each `from` must appear exactly `count` times (default 1). */
  edits: { from: string; to: string; count?: number }[]
}

const WRITE_GUARDS = '/* sightline: write guards */'
const FRESH_SESSION = '/* sightline: fresh session */'
const CLOSED_TRANSACTION = '/* sightline: closed transaction */'

const patches: Patch[] = [
  {
    file: 'connection.js',
    mark: WRITE_GUARDS,
    edits: [
      // settle rather than drop (as upstream #1209 does): the query that wrote gets CONNECTION_CLOSED instead of waiting
      // for ever, e.g. the ROLLBACK a transaction sends after its connection died
      {
        from: 'function nextWrite(fn) {\n',
        to: `function nextWrite(fn) {\n    ${WRITE_GUARDS}\n    if (!socket) {\n` +
          `      const err = Errors.connection('CONNECTION_CLOSED', options)\n` +
          `      chunk = nextWriteTimer = null\n      error(err)\n      fn && fn(err)\n      return false\n    }\n`,
      },
      // in terminate() and closed(): the pending bytes were for the socket that is going away
      { from: '    clearImmediate(nextWriteTimer)\n', to: '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n', count: 2 },
    ],
  },
  {
    file: 'connection.js',
    mark: FRESH_SESSION,
    edits: [{
      from: '  function connected() {\n    try {\n      statements = {}\n',
      to: '  function connected() {\n    try {\n' +
        `      ${FRESH_SESSION}\n` +
        "      const stale = Errors.connection('CONNECTION_CLOSED', options)\n" +
        '      query && queryError(query, stale)\n' +
        '      while (sent.length)\n        queryError(sent.shift(), stale)\n' +
        '      query = results = errorResponse = null\n' +
        '      result = new Result()\n' +
        '      statements = {}\n',
    }],
  },
  {
    file: 'index.js',
    mark: CLOSED_TRANSACTION,
    edits: [
      { from: '      , connection\n      , prepare = null\n', to: `      , connection\n      , prepare = null\n      , gone = null ${CLOSED_TRANSACTION}\n` },
      {
        from: '        new Promise((_, reject) => connection.onclose = reject)\n',
        to: '        new Promise((_, reject) => connection.onclose = (e) => {\n' +
          '          gone = e\n          while (queries.length)\n            queries.shift().reject(e)\n          reject(e)\n        })\n',
      },
      {
        from: '      function handler(q) {\n        q.catch(e => uncaughtError || (uncaughtError = e))\n        c.queue === full\n',
        to: '      function handler(q) {\n        q.catch(e => uncaughtError || (uncaughtError = e))\n        if (gone)\n          return q.reject(gone)\n        c.queue === full\n',
      },
    ],
  },
]

const root = path.resolve(import.meta.dirname, '../node_modules/postgres')
for (const dir of ['src', 'cjs/src', 'cf/src']) {
  for (const name of ['connection.js', 'index.js'] as const) {
    const file = path.join(root, dir, name)
    if (!fs.existsSync(file)) continue
    const found = fs.readFileSync(file, 'utf8')
    let text = found
    for (const patch of patches.filter((p) => p.file === name && !text.includes(p.mark))) {
      const fits = patch.edits.every(({ from, count = 1 }) => text.split(from).length - 1 === count)
      if (!fits) {
        console.warn(`postgres.js guard ${patch.mark} not applied to ${path.relative(process.cwd(), file)}: its code is not the one expected`)
        continue
      }
      text = patch.edits.reduce((t, { from, to }) => t.replaceAll(from, to), text)
    }
    if (text !== found) fs.writeFileSync(file, text)
  }
}
