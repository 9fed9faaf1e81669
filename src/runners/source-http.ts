import { ByteBudget, readBody, readStart } from './answer-body.ts'
import type { Resolve } from './address-guard.ts'
import { RunnerError } from './runner.ts'
import { safeFetch, type Answer, type HttpRequest } from './safe-fetch.ts'

/**
 * Requests to the HTTP API an administrator configured (Prometheus, InfluxDB): query text only ever fills in
 * parameters, and every request, redirects included, stays on the configured origin, over the connection the address
 * guard checked (safe-fetch.ts).
 */
export interface SourceRequest extends HttpRequest {
  url: URL
  signal: AbortSignal
  /** Give up when the answer's headers have not arrived this soon (test(): an unreachable host answers fast). */
  headersTimeoutMs?: number
}

/** How host names are resolved; the tests of vendors' fixed hosts (googleapis.com …) answer with their own. */
let resolveHost: Resolve | undefined

/** Tests only: a resolver for every source request (undefined restores the system's). */
export function setSourceResolve(resolve: Resolve | undefined) {
  resolveHost = resolve
}

export async function askSource({ url, signal, headersTimeoutMs, ...request }: SourceRequest): Promise<Answer> {
  const connect = new AbortController()
  const timer = headersTimeoutMs ? setTimeout(() => connect.abort(), headersTimeoutMs) : undefined
  try {
    return await safeFetch(url, request, { baseUrl: url.origin, signal: AbortSignal.any([signal, connect.signal]), ...(resolveHost && { resolve: resolveHost }) })
  } catch (e) {
    if (signal.aborted) throw signal.reason
    if (connect.signal.aborted) throw new RunnerError(`Could not reach ${url.origin}: no answer within ${headersTimeoutMs! / 1000} s`, 'connection')
    throw e
  } finally {
    clearTimeout(timer)
  }
}

/** The answer's body as JSON, read within `budget` (bytes); a body that is not JSON is quoted in the error. */
export async function readJson(answer: Answer, budget: ByteBudget, signal: AbortSignal): Promise<unknown> {
  const chunks: Buffer[] = []
  await readBody(answer, budget, signal, (chunk) => chunks.push(chunk))
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    throw new RunnerError(`Unexpected answer from ${answer.url.origin} (${answer.status}): ${text.slice(0, 300) || 'an empty body'}`)
  }
}

/** The start of an error answer as text, for the message. */
export async function errorText(answer: Answer): Promise<string> {
  return (await readStart(answer, 4_000)).toString('utf8').trim()
}

/** `Basic …` for the user and password in a URL (as clients of these APIs accept), and the URL without them. */
export function withoutCredentials(url: URL): { url: URL; authorization?: string } {
  if (!url.username && !url.password) return { url }
  const user = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  const bare = new URL(url)
  bare.username = ''
  bare.password = ''
  return { url: bare, authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') }
}
