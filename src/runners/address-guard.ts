import dns from 'node:dns/promises'
import net from 'node:net'
import { RunnerError } from './runner.ts'

// Addresses inside the server's own network: loopback, private, link-local (cloud metadata), carrier-grade NAT.
const internal = new net.BlockList()
for (const [address, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) internal.addSubnet(address, prefix, 'ipv4')
for (const [address, prefix] of [['::1', 128], ['::', 128], ['fc00::', 7], ['fe80::', 10]] as const) internal.addSubnet(address, prefix, 'ipv6')

function isInternal(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return internal.check(mapped[1], 'ipv4')
  return internal.check(ip, net.isIPv6(ip) ? 'ipv6' : 'ipv4')
}

/**
 * Keeps query text from reaching into the server's own network (as the established tool does): a URL that a
 * query names must stay on the origin of the source's configured base URL, or, without one, must not resolve to an
 * internal address. Operators who want internal addresses set SIGHTLINE_ALLOW_PRIVATE_ADDRESSES=true.
 */
export async function checkAddress(url: URL, baseUrl: string | undefined, env = process.env): Promise<void> {
  if (baseUrl) {
    if (url.origin !== new URL(baseUrl).origin) {
      throw new RunnerError(`This data source only queries ${new URL(baseUrl).origin}; ${url.origin} is not allowed.`)
    }
    return
  }
  if (env.SIGHTLINE_ALLOW_PRIVATE_ADDRESSES === 'true') return
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address)
  if (addresses.some(isInternal)) {
    throw new RunnerError(`${url.hostname} is an internal address; set a Base URL on the data source to query it.`)
  }
}
