/**
 * Two guards in the write scheduler of postgres.js 3.4.x, applied by `npm install` (postinstall). Both bite when
 * Sightline's database goes away under load (upstream porsager/postgres#1154, #1066, #1208; fixes proposed in #1168,
 * #1176 and #1209, none released):
 *   - a small write is deferred with setImmediate; when the connection closes first, the deferred write calls
 *     `socket.write` on null and the TypeError, thrown outside any query, ends the whole process;
 *   - closing or ending a connection clears that timer without forgetting it, so the connection, once reconnected,
 *     never sends anything again (its start-up message waits behind the stale timer until connect_timeout).
 * Idempotent. When the driver's code is no longer what this expects (a release that changed or fixed it), it says so
 * and changes nothing. `node scripts/patch-postgres.ts`.
 */
import fs from 'node:fs'
import path from 'node:path'

const MARK = '/* sightline: write guards */'
const root = path.resolve(import.meta.dirname, '../node_modules/postgres')
const variants = ['src', 'cjs/src', 'cf/src'].map((dir) => path.join(root, dir, 'connection.js')).filter((file) => fs.existsSync(file))

const edits: [from: string, to: string][] = [
  // settle rather than drop (as upstream #1209 does): the query that wrote gets CONNECTION_CLOSED instead of waiting
  // for ever, e.g. the ROLLBACK a transaction sends after its connection died
  [
    'function nextWrite(fn) {\n',
    `function nextWrite(fn) {\n    ${MARK}\n    if (!socket) {\n` +
    `      const err = Errors.connection('CONNECTION_CLOSED', options)\n` +
    `      chunk = nextWriteTimer = null\n      error(err)\n      fn && fn(err)\n      return false\n    }\n`,
  ],
  // in terminate() and closed(): the pending bytes were for the socket that is going away
  ['    clearImmediate(nextWriteTimer)\n', '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n'],
]

for (const file of variants) {
  const text = fs.readFileSync(file, 'utf8')
  if (text.includes(MARK)) continue
  const clears = text.split(edits[1][0]).length - 1
  if (!text.includes(edits[0][0]) || clears !== 2 || !text.includes("Errors.connection('CONNECTION_CLOSED'")) {
    console.warn(`postgres.js write guards not applied to ${path.relative(process.cwd(), file)}: its code is not the one expected`)
    continue
  }
  fs.writeFileSync(file, edits.reduce((t, [from, to]) => t.replaceAll(from, to), text))
}
