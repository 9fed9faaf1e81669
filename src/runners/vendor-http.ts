import { setTimeout as sleep } from 'node:timers/promises'
import { loadConfig } from '../config.ts'
import { ByteBudget } from './answer-body.ts'
import { RunnerError } from './runner.ts'
import type { Answer, HttpRequest } from './safe-fetch.ts'
import { askSource, errorText, readJson } from './source-http.ts'

/*
 * One call to a warehouse's HTTP API (Trino, Elasticsearch …): on the host the administrator configured, under the
 * same address rules as every source request (source-http.ts). A vendor that answers "busy" (429, 502, 503, 504) is
 * asked again after a growing pause — its Retry-After when it gives one — and, still busy after the last try, the
 * user reads which service was busy and what it said. Credentials refused (an expired token, a wrong password) are
 * a connection error naming the service, so the admin knows where to look.
 */

export interface VendorCall extends HttpRequest {
  /** The service's name in messages ("Trino"). */
  vendor: string
  url: URL
  signal: AbortSignal
  /** Most bytes one answer may have: a page larger than a whole result is refused. */
  maxBytes?: number
  headersTimeoutMs?: number
}

export interface VendorAnswer {
  status: number
  headers: Answer['headers']
  /** The body parsed, for a JSON answer; undefined otherwise. */
  json: unknown
  /** The start of a body that is not JSON, for the message. */
  text: string
}

export const BUSY = new Set([429, 502, 503, 504])
/** The pauses before each retry of a busy answer; the tests shorten them. */
let pausesMs = [100, 400, 1_600, 4_000]
/** The longest Retry-After honoured: a vendor asking for more is reported busy rather than waited for. */
const MAX_RETRY_AFTER_MS = 30_000

/** Tests only: the pauses between tries of a busy answer (undefined restores them). */
export function setRetryPauses(pauses: number[] | undefined) {
  pausesMs = pauses ?? [100, 400, 1_600, 4_000]
}

/** The pause before asking a busy service again after `attempt` busy answers; undefined once the tries are spent. */
export function busyPauseMs(answer: Answer, attempt: number): number | undefined {
  return attempt < pausesMs.length ? retryAfterMs(answer, pausesMs[attempt]) : undefined
}

function retryAfterMs(answer: Answer, fallback: number): number {
  const header = String(answer.headers['retry-after'] ?? '').trim()
  if (!header) return fallback
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : fallback
}

const isJson = (answer: Answer) => /json/i.test(String(answer.headers['content-type'] ?? ''))

/** Sends the call, asking again while the vendor is busy; the answer's JSON (or text), whatever its status. */
export async function callVendor({ vendor, url, signal, maxBytes, headersTimeoutMs, ...request }: VendorCall): Promise<VendorAnswer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await askSource({ url, signal, headersTimeoutMs, ...request })
    if (BUSY.has(answer.status)) {
      const detail = await errorText(answer)
      const pause = busyPauseMs(answer, attempt)
      if (pause === undefined) {
        throw new RunnerError(`${vendor} at ${url.origin} is busy or unavailable: it answered ${answer.status} ${attempt + 1} times` +
          `${detail ? ` (last: ${detail.slice(0, 300)})` : ''}. Try again later.`, 'connection')
      }
      await sleep(pause, undefined, { signal })
      continue
    }
    if (!isJson(answer)) return { status: answer.status, headers: answer.headers, json: undefined, text: (await errorText(answer)).slice(0, 2_000) }
    const json = await readJson(answer, new ByteBudget(maxBytes ?? loadConfig().maxResultBytes), signal)
    return { status: answer.status, headers: answer.headers, json, text: '' }
  }
}

/** The error for an answer refusing the credentials, or undefined for other answers. */
export function credentialsError(vendor: string, status: number, detail: string): RunnerError | undefined {
  if (status !== 401 && status !== 403) return undefined
  const why = status === 401 ? 'refused the credentials (401)' : 'denied access (403)'
  return new RunnerError(`${vendor} ${why}${detail ? `: ${detail.slice(0, 500)}` : ''}. Check the data source's credentials; a token or key may have expired.`, 'connection')
}

/** Best effort, never failing the run: a cancel the vendor may already have seen through a closed request. */
export async function tellVendor({ vendor: _, maxBytes: __, ...call }: Omit<VendorCall, 'signal'>, withinMs = 5_000): Promise<void> {
  try {
    const answer = await askSource({ ...call, signal: AbortSignal.timeout(withinMs) })
    answer.close()
  } catch {
    // the statement ends by the vendor's own timeout then
  }
}
