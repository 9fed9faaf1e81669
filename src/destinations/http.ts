import { DeliveryFailed } from './delivery-failed.ts'
import type { DeliveryAnswer } from './notification.ts'

/** Each attempt gets this long (the established tool gave 5 s and never tried again; our job tries again). */
export const DELIVERY_TIMEOUT_MS = 10_000

/** How much of a service's answer is read, and how much of it is kept as the answer's detail. */
const MAX_READ_BYTES = 64 * 1024
const MAX_DETAIL_CHARS = 500

/** One request a kind builds from its options and the notification; `http.ts` alone sends it. */
export interface OutgoingRequest {
  url: string
  headers?: Record<string, string>
  /** An object is sent as JSON; URLSearchParams as a form. */
  body: unknown
}

/**
 * The address a destination's options hold, checked: absolute http(s), nothing else (no file:, no data:). It comes only
 * from the options an admin saved, never from an alert or a query; loopback and private addresses are allowed (the
 * admin chose them, and tests need them).
 */
export function destinationUrl(raw: unknown, label = 'URL'): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw new DeliveryFailed(`The destination has no ${label}.`, null, false)
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new DeliveryFailed(`The destination's ${label} is not a valid address.`, null, false)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DeliveryFailed(`The destination's ${label} must start with http:// or https://.`, null, false)
  }
  return url
}

async function readSome(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < MAX_READ_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_DETAIL_CHARS).trim()
}

// Trying again helps with the service's own trouble and with being rushed, not with a request it refused.
const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429

/**
 * POST one request and read the answer: a 2xx is the answer; anything else, a timeout or an unreachable service is a
 * DeliveryFailed. Redirects are not followed: the service must be at the address the admin gave.
 */
export async function send(request: OutgoingRequest, url: URL = destinationUrl(request.url)): Promise<DeliveryAnswer> {
  const headers: Record<string, string> = { 'User-Agent': 'Sightline', ...request.headers }
  let body: string
  if (request.body instanceof URLSearchParams) {
    body = request.body.toString()
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded'
  } else {
    body = JSON.stringify(request.body)
    headers['Content-Type'] ??= 'application/json'
  }
  let response: Response
  try {
    response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) })
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } }
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError'
    const why = timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message)
    throw new DeliveryFailed(`Could not reach ${url.host}: ${why}.`, null, true)
  }
  const detail = await readSome(response)
  if (response.status >= 200 && response.status < 300) return { status: response.status, detail }
  const said = detail ? `: ${detail}` : '.'
  if (response.status >= 300 && response.status < 400) {
    throw new DeliveryFailed(`${url.host} answered with a redirect (HTTP ${response.status}); give the destination its final address.`, response.status, false)
  }
  throw new DeliveryFailed(`${url.host} answered HTTP ${response.status}${said}`, response.status, retryableStatus(response.status),
    `${url.host} answered HTTP ${response.status}.`)
}
