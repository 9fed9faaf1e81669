import type { Context } from 'hono'
import type { Env } from './env.ts'
import { AddressRanges, isAddress, normalizeAddress } from '../validation/index.ts'

/**
 * What the runtime's server hands the app beside the request: @hono/node-server passes `{ incoming, outgoing }`
 * (the socket is `incoming.socket`), Deno.serve passes `{ remoteAddr }`. Tests calling `app.request(path, init,
 * env)` pass either shape.
 */
type ServerBindings = {
  incoming?: { socket?: { remoteAddress?: string } }
  server?: { incoming?: { socket?: { remoteAddress?: string } } }
  remoteAddr?: { hostname?: string }
}

/** The address at the other end of the connection, whatever the runtime; undefined when there is no socket. */
export function socketAddress<E extends Env>(c: Context<E>): string | undefined {
  const env = c.env as ServerBindings | undefined
  const address = env?.incoming?.socket?.remoteAddress ?? env?.server?.incoming?.socket?.remoteAddress ?? env?.remoteAddr?.hostname
  return address ? normalizeAddress(address) : undefined
}

const compiled = new WeakMap<readonly string[], AddressRanges>()

function trustedProxies<E extends Env>(c: Context<E>): AddressRanges {
  const list = c.get('deps').config.trustedProxies
  let ranges = compiled.get(list)
  if (!ranges) compiled.set(list, (ranges = new AddressRanges(list)))
  return ranges
}

/**
 * The caller's address. It is the socket's, unless the connection comes from a trusted proxy
 * (SIGHTLINE_TRUSTED_PROXIES): then X-Forwarded-For is read from the right, skipping our own proxies, and the first
 * address not among them is the caller (anything left of it was written by the caller and proves nothing).
 * Anyone else's forwarding headers are ignored, so a client cannot pick the address it is counted under.
 */
export function clientIp<E extends Env>(c: Context<E>): string | undefined {
  const socket = socketAddress(c)
  if (!socket) return undefined
  const proxies = trustedProxies(c)
  if (!proxies.has(socket)) return socket
  const forwarded = c.req.header('x-forwarded-for')
  const hops = forwarded ? forwarded.split(',').map((hop) => hop.trim()).filter(Boolean) : []
  if (!hops.length) {
    const real = c.req.header('x-real-ip')?.trim()
    return real && isAddress(real) ? normalizeAddress(real) : socket
  }
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isAddress(hops[i])) return socket // a hop we cannot read: do not guess past it
    const hop = normalizeAddress(hops[i])
    if (!proxies.has(hop)) return hop
  }
  // every hop is one of our proxies: the leftmost is as close to the caller as we can tell
  return normalizeAddress(hops[0])
}

/** Whether the connection itself comes from one of SIGHTLINE_TRUSTED_PROXIES (never what a header says). */
export function fromTrustedProxy<E extends Env>(c: Context<E>): boolean {
  const socket = socketAddress(c)
  return socket !== undefined && trustedProxies(c).has(socket)
}
