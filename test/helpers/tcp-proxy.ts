import net from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A TCP relay on loopback that can be frozen: while frozen it still accepts connections but forwards nothing in
 * either direction (what a hung server, a paused VM or a stalled network looks like to a client); thawed, it passes on
 * what it held, in order, and relays again. Stands between Sightline (or a data source's runner) and a PostgreSQL.
 */
export interface FreezableProxy {
  port: number
  /** `postgres://…` of `url` with its address replaced by this relay's (and any socket `host` parameter removed). */
  urlFor(url: string): string
  freeze(): void
  thaw(): void
  close(): Promise<void>
}

/** Where the PostgreSQL of a `postgres://` URL listens: its socket directory when the URL names one, else host and port. */
export function targetOf(url: string): net.NetConnectOpts {
  const u = new URL(url)
  const socketDir = u.searchParams.get('host')
  const port = Number(u.port || 5432)
  return socketDir ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: u.hostname, port }
}

export async function freezableProxy(target: net.NetConnectOpts): Promise<FreezableProxy> {
  let frozen = false
  const held: [net.Socket, Buffer][] = []
  const sockets = new Set<net.Socket>()
  const relay = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => (frozen ? held.push([to, chunk]) : to.write(chunk)))
    from.on('close', () => to.destroy())
    from.on('error', () => to.destroy())
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(target)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    relay(client, upstream)
    relay(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    urlFor(url) {
      const u = new URL(url)
      u.searchParams.delete('host')
      u.hostname = '127.0.0.1'
      u.port = String(port)
      return u.toString()
    },
    freeze: () => (frozen = true),
    thaw() {
      frozen = false
      for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk)
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    }),
  }
}
