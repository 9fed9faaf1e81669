import fs from 'node:fs'
import { http, HttpResponse } from 'msw'

/**
 * Replays a recorded conversation (test/fixtures/<kind>/conversation.json) with a service at `origin`: each request
 * must be the next one recorded (method, path, the recorded headers and body), and gets the recorded answer.
 */
export interface Exchange {
  request: { method: string; path: string; headers?: Record<string, string>; body?: string | object }
  response: { status: number; headers?: Record<string, string>; body: unknown }
}

export function replay(file: string, origin: string) {
  const { exchanges } = JSON.parse(fs.readFileSync(new URL(`../../fixtures/${file}`, import.meta.url), 'utf8')) as { exchanges: Exchange[] }
  const seen: { method: string; path: string; headers: Record<string, string>; body: string }[] = []
  let next = 0
  const handler = http.all(`${origin}/*`, async ({ request }) => {
    const url = new URL(request.url)
    seen.push({ method: request.method, path: url.pathname + url.search, headers: Object.fromEntries(request.headers), body: await request.text() })
    const exchange = exchanges[next++]
    if (!exchange) return HttpResponse.json({ message: 'the recorded conversation has ended' }, { status: 500 })
    const { status, headers, body } = exchange.response
    return HttpResponse.json(body as object, { status, headers })
  })
  return { handler, exchanges, seen, done: () => next === exchanges.length }
}

/** Whether what was sent is what the recording says was sent (headers: those it names). */
export function matchesRecording(seen: ReturnType<typeof replay>['seen'], exchanges: Exchange[]) {
  return seen.map((s, i) => {
    const r = exchanges[i]?.request
    const headers = Object.fromEntries(Object.keys(r?.headers ?? {}).map((h) => [h, s.headers[h]]))
    const body = typeof r?.body === 'object' ? JSON.parse(s.body || 'null') : r?.body === undefined ? undefined : s.body
    return { method: s.method, path: s.path, ...(r?.headers && { headers }), ...(r?.body !== undefined && { body }) }
  })
}
