import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { pipeline, type Readable } from 'node:stream'
import zlib from 'node:zlib'
import { allowedAddresses, type GuardOptions, type ResolvedAddress } from './address-guard.ts'
import { RunnerError } from './runner.ts'

/**
 * HTTP requests that query text chooses (the JSON source): every hop of a redirect chain passes the address guard
 * again, and each connection goes to an address the guard checked, never to a second DNS answer. Built on node:http
 * and node:https, which Deno provides too (with the `lookup` option this relies on).
 */

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE'
  headers: Record<string, string>
  body?: string
  /** For https: the source's own CA, client certificate and key, and whether the server's certificate is checked. */
  tls?: TlsOptions
}

export interface TlsOptions {
  ca?: string
  cert?: string
  key?: string
  rejectUnauthorized?: boolean
}

/** Sends one request to one of `addresses` (the guard's), with the URL's host name in the Host header and TLS SNI. */
export type Send = (url: URL, addresses: ResolvedAddress[], request: HttpRequest, signal: AbortSignal) => Promise<http.IncomingMessage>

export interface SafeFetchOptions extends GuardOptions {
  signal: AbortSignal
  /** False answers with a redirect itself instead of following it. */
  followRedirects?: boolean
  /** How the request is sent; the tests replace it to answer without a network. */
  send?: Send
}

export interface Answer {
  url: URL
  status: number
  headers: http.IncomingHttpHeaders
  /** The body as sent, decompressed when the server compressed it. */
  body: Readable
  /** Whether the body is decompressed (its length is then not the Content-Length). */
  decompressed: boolean
  /** Lets go of the connection, read or not. */
  close(): void
}

/** The most redirects one request follows, as browsers count them on a much larger budget. */
export const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
/** Headers that carry credentials for one origin, dropped when a redirect leaves it (as fetch does). */
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization'])
/**
 * Headers query text may not set (fetch forbids them too): Host would aim the request at another site on the checked
 * address, and the framing ones would let the text smuggle a second request into the connection.
 */
const FORBIDDEN = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect'])

export function httpOnly(u: URL): URL {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RunnerError(`Only http and https URLs can be queried (got ${u.protocol.slice(0, -1)}).`)
  return u
}

export async function safeFetch(start: URL, request: HttpRequest, options: SafeFetchOptions): Promise<Answer> {
  const { baseUrl, signal, followRedirects = true, send = sendPinned } = options
  let url = start
  for (let hop = 0; ; hop++) {
    const addresses = await allowedAddresses(url, options).catch((e: unknown) => {
      if (hop > 0 && e instanceof RunnerError && e.kind === 'query') throw new RunnerError(`Refused a redirect to ${url.href}: ${e.message}`)
      throw e
    })
    let res: http.IncomingMessage
    try {
      res = await send(url, addresses, request, signal)
    } catch (e) {
      if (signal.aborted) throw signal.reason
      throw new RunnerError(`Could not reach ${url.origin}: ${networkCode(e)}`, 'connection')
    }
    const location = res.headers.location
    if (!followRedirects || !REDIRECT_STATUSES.has(res.statusCode!) || !location) return answer(url, res)
    res.destroy()
    if (hop >= MAX_REDIRECTS) throw new RunnerError(`Too many redirects: ${start.href} still redirects after ${MAX_REDIRECTS}.`)
    let next: URL
    try {
      next = new URL(location, url)
    } catch {
      throw new RunnerError(`${url.href} redirects to an invalid URL: ${location.slice(0, 200)}`)
    }
    httpOnly(next)
    if (baseUrl && next.origin !== new URL(baseUrl).origin) {
      throw new RunnerError(`Refused a redirect out of the Base URL's origin (${new URL(baseUrl).origin}) to ${next.origin}.`)
    }
    request = redirected(request, res.statusCode!, url, next)
    url = next
  }
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) turn into a GET without body, as fetch does. */
function redirected(request: HttpRequest, status: number, from: URL, to: URL): HttpRequest {
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST')
  const dropped = (name: string) => {
    const n = name.toLowerCase()
    return (toGet && (n === 'content-type' || n === 'content-length')) || (from.origin !== to.origin && CREDENTIALS.has(n))
  }
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !dropped(name)))
  return toGet ? { method: 'GET', headers } : { ...request, headers }
}

function answer(url: URL, res: http.IncomingMessage): Answer {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase()
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip()
    : encoding === 'deflate' ? zlib.createInflate()
    : encoding === 'br' ? zlib.createBrotliDecompress()
    : null
  // Errors reach the reader through the body; this keeps one on an unread body from being an uncaught exception.
  const body: Readable = decoder ? pipeline(res, decoder, () => {}) : res
  body.on('error', () => {})
  return {
    url, status: res.statusCode!, headers: res.headers, body, decompressed: decoder !== null,
    close: () => {
      body.destroy()
      res.destroy()
    },
  }
}

/** The network error's code (ECONNREFUSED …), also when several addresses were tried. */
export function networkCode(e: unknown): string {
  const err = e as { code?: string; message?: string; errors?: { code?: string }[] }
  return err.code ?? err.errors?.find((x) => x.code)?.code ?? err.message ?? String(e)
}

/** Answers a connection's DNS question with the checked addresses only, whatever the name. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: unknown, callback?: (...args: unknown[]) => void) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void
    const o = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean; family?: number | string }
    const family = o.family === 'IPv4' ? 4 : o.family === 'IPv6' ? 6 : Number(o.family ?? 0)
    const list = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses
    if (o.all) return cb(null, list)
    if (!list.length) return cb(Object.assign(new Error('No checked address of that family'), { code: 'ENOTFOUND' }))
    cb(null, list[0].address, list[0].family)
  }) as LookupFunction
}

const sendPinned: Send = (url, addresses, request, signal) => {
  const client = url.protocol === 'https:' ? https : http
  const body = request.body === undefined ? undefined : Buffer.from(request.body)
  const headers: Record<string, string | number> = { 'accept-encoding': 'gzip, deflate, br' }
  for (const [name, value] of Object.entries(request.headers)) if (!FORBIDDEN.has(name.toLowerCase())) headers[name.toLowerCase()] = value
  if (body) headers['content-length'] = body.length
  return new Promise((resolve, reject) => {
    const req = client.request({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: url.pathname + url.search,
      method: request.method,
      headers,
      lookup: pinnedLookup(addresses),
      // No connection pool: a pooled connection is keyed by host name, not by the address it was opened to.
      agent: false,
      signal,
      ...(url.protocol === 'https:' && request.tls),
    }, resolve)
    req.on('error', reject)
    req.end(body)
  })
}
