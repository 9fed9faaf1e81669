/**
 * `npx tsx bench/json-source-size.ts`: what a large JSON-source answer costs the server.
 * A local server answers with a JSON array of BENCH_MB megabytes (300 by default, sent as it is written, never held
 * whole) and the JSON runner reads it under SIGHTLINE_MAX_RESULT_BYTES (100 MB by default). Prints, for that answer
 * and for one just under the limit: how long until the run is refused or has its rows, how many bytes the server got
 * to send, and the longest the event loop was held (what every other request on the server waits).
 */
import http from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { jsonRunner } from '../src/runners/index.ts'
import { loadConfig } from '../src/config.ts'

const MB = 1024 * 1024
const row = '{"id":1,"name":"a row of a large answer","price":12.5,"active":true},'
const chunk = Buffer.from(row.repeat(Math.floor(MB / row.length)))

/** Serves `/N` as a JSON array of about N MB, written as the client reads it. */
const server = http.createServer((req, res) => {
  const total = Number(req.url!.slice(1)) * MB
  let sent = 0
  res.writeHead(200, { 'content-type': 'application/json' })
  res.write('[')
  const more = () => {
    while (!res.destroyed && sent + chunk.length <= total) {
      sent += chunk.length
      if (!res.write(chunk)) return
    }
    if (!res.destroyed && !res.writableEnded) res.end('{"id":0}]')
  }
  res.on('drain', more)
  res.on('close', () => console.log(`  server sent ${(sent / MB).toFixed(0)} MB`))
  more()
})
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`

async function measure(label: string, mb: number) {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  // A timer's lateness, measured by hand too, as a check on the histogram.
  let last = performance.now()
  let longest = 0
  const tick = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 5)
  const started = performance.now()
  let outcome: string
  try {
    const stream = await jsonRunner.run({ base_url: base }, JSON.stringify({ url: String(mb) }), { signal: new AbortController().signal, timeoutMs: 600_000 })
    let rows = 0
    for await (const batch of stream.batches) rows += (batch as unknown[]).length
    outcome = `${rows} rows`
  } catch (e) {
    outcome = `refused: ${(e as Error).message.slice(0, 80)}…`
  }
  const ms = performance.now() - started
  // A hold at the very end shows only once the timers get their next turn.
  await new Promise((r) => setTimeout(r, 50))
  delay.disable()
  clearInterval(tick)
  const held = Math.max(longest, delay.max / 1e6)
  console.log(`${label}: ${(ms / 1000).toFixed(1)} s, longest event-loop hold ${held.toFixed(0)} ms — ${outcome}`)
}

const limitMb = loadConfig().maxResultBytes / MB
await measure(`${Number(process.env.BENCH_MB ?? 300)} MB answer, limit ${limitMb} MB`, Number(process.env.BENCH_MB ?? 300))
await measure(`${Math.floor(limitMb * 0.9)} MB answer, limit ${limitMb} MB`, Math.floor(limitMb * 0.9))
server.close()
