import net from 'node:net'

/**
 * Addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`, `192.0.2.7`), for telling a trusted proxy's connection from
 * anyone else's. Parsed by hand rather than with net.BlockList so it behaves the same under Deno.
 */
interface Range {
  family: 4 | 6
  bits: bigint
  prefix: number
}

/** The canonical text of an address: lower case, and an IPv4 address mapped into IPv6 as plain IPv4. */
export function normalizeAddress(address: string): string {
  const a = address.trim().toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)
  return mapped ? mapped[1] : a
}

function toBits(address: string): { family: 4 | 6; bits: bigint } | undefined {
  const a = normalizeAddress(address)
  const family = net.isIP(a)
  if (family === 4) return { family, bits: a.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n) }
  if (family !== 6) return undefined
  let text = a.replace(/%.*$/, '') // zone id (fe80::1%eth0)
  // a trailing dotted IPv4 part (::ffff:1.2.3.4 is handled above; 64:ff9b::1.2.3.4 is not) becomes two groups
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const v4 = toBits(dotted[1])!.bits
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
  return { family, bits: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) }
}

/** One `address` or `address/prefix`; throws with the offending text when it is neither. */
export function parseRange(text: string): Range {
  const [address, prefixText, extra] = text.trim().split('/')
  const parsed = extra === undefined ? toBits(address) : undefined
  if (!parsed) throw new Error(`"${text.trim()}" is not an IP address or CIDR range`)
  const width = parsed.family === 4 ? 32 : 128
  const prefix = prefixText === undefined ? width : Number(prefixText)
  if (prefixText === '' || !Number.isInteger(prefix) || prefix < 0 || prefix > width) {
    throw new Error(`"${text.trim()}" has a prefix length outside 0-${width}`)
  }
  return { family: parsed.family, bits: parsed.bits >> BigInt(width - prefix), prefix }
}

/** A set of ranges that answers whether an address lies in one of them. */
export class AddressRanges {
  private ranges: Range[]

  constructor(texts: readonly string[]) {
    this.ranges = texts.map(parseRange)
  }

  get size(): number {
    return this.ranges.length
  }

  has(address: string): boolean {
    if (!this.ranges.length) return false
    const parsed = toBits(address)
    if (!parsed) return false
    const width = parsed.family === 4 ? 32 : 128
    return this.ranges.some((r) => r.family === parsed.family && parsed.bits >> BigInt(width - r.prefix) === r.bits)
  }
}

/** Whether the text is an IP address (v4 or v6, IPv4-mapped included). */
export function isAddress(text: string): boolean {
  return net.isIP(normalizeAddress(text)) !== 0
}
