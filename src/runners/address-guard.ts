import dns from 'node:dns/promises'
import net from 'node:net'
import { RunnerError } from './runner.ts'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Turns a host name into the addresses to connect to; the tests pass their own to play a DNS server. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolve: Resolve = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))

// Addresses inside the server's own network: loopback, private, link-local (cloud metadata), carrier-grade NAT, and
// the ranges no public service lives on (benchmarking, IETF, multicast, reserved, broadcast).
const internal = new net.BlockList()
for (const [address, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  internal.addSubnet(address, prefix, 'ipv4')
}
for (const [address, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const) {
  internal.addSubnet(address, prefix, 'ipv6')
}

/** The IPv4 address an IPv6 address carries in its last 32 bits (IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::`). */
function embeddedIpv4(ip: string): string | null {
  const m = /^(?:::|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip)
  if (!m) return null
  if (m[1]) return m[1]
  const hi = parseInt(m[2], 16)
  const lo = parseInt(m[3], 16)
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
}

/** Whether an IP address is inside the server's own network (IPv4-mapped `::ffff:` forms included). */
export function isInternal(ip: string): boolean {
  if (!net.isIPv6(ip)) return internal.check(ip, 'ipv4')
  ip = new URL(`http://[${ip}]/`).hostname.slice(1, -1) // one spelling: `0:0::7f00:1` is `::7f00:1`
  const v4 = embeddedIpv4(ip)
  return internal.check(ip, 'ipv6') || (v4 !== null && internal.check(v4, 'ipv4'))
}

export interface GuardOptions {
  /** The data source's Base URL: every request, redirects included, stays on its origin. */
  baseUrl?: string
  env?: Record<string, string | undefined>
  resolve?: Resolve
  signal?: AbortSignal
}

/**
 * Keeps query text from reaching into the server's own network (as the established tool does): a URL that a query
 * names must stay on the origin of the source's configured Base URL, or, without one, must not resolve to an
 * internal address. Operators who want internal addresses set SIGHTLINE_ALLOW_PRIVATE_ADDRESSES=true.
 *
 * The host is resolved here once and the addresses returned are the only ones the request may connect to: resolving
 * again at connect time would let a DNS server answer a public address to this check and an internal one to the
 * connection (DNS rebinding). Every address is checked, so an answer mixing public and internal ones is refused.
 */
export async function allowedAddresses(url: URL, options: GuardOptions = {}): Promise<ResolvedAddress[]> {
  const { baseUrl, env = process.env, resolve = systemResolve, signal } = options
  if (baseUrl && url.origin !== new URL(baseUrl).origin) {
    throw new RunnerError(`This data source only queries ${new URL(baseUrl).origin}; ${url.origin} is not allowed.`)
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const family = net.isIP(host)
  const addresses = family ? [{ address: host, family: family as 4 | 6 }] : await lookup(url, host, resolve, signal)
  // A Base URL is the operator's own choice of host, internal or not.
  if (baseUrl || env.SIGHTLINE_ALLOW_PRIVATE_ADDRESSES === 'true') return addresses
  const inside = addresses.find((a) => isInternal(a.address))
  if (inside) {
    const which = inside.address === host ? host : `${url.hostname} (${inside.address})`
    throw new RunnerError(`${which} is an internal address; set a Base URL on the data source to query it.`)
  }
  return addresses
}

async function lookup(url: URL, host: string, resolve: Resolve, signal: AbortSignal | undefined): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[]
  try {
    // A lookup cannot be aborted; a stopped run stops waiting for it.
    addresses = await (signal ? raceAbort(resolve(host), signal) : resolve(host))
  } catch (e) {
    if (signal?.aborted) throw e
    const code = (e as { code?: string }).code ?? (e as Error).message
    throw new RunnerError(`Could not reach ${url.origin}: ${code}`, 'connection')
  }
  if (!addresses.length) throw new RunnerError(`Could not reach ${url.origin}: ENOTFOUND`, 'connection')
  return addresses
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
