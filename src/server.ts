import type { Hono } from 'hono'

export interface RunningServer {
  port: number
  /** Stop accepting connections and wait (up to `graceMs`) for requests in flight. */
  close(graceMs: number): Promise<void>
}

type DenoGlobal = {
  serve: (o: { port: number; hostname: string; onListen?: (a: { port: number }) => void }, h: (r: Request) => Response | Promise<Response>) =>
    { finished: Promise<void>; shutdown: () => Promise<void>; addr: { port: number } }
}

/** Serve the app with the runtime's own server: @hono/node-server on Node, Deno.serve on Deno. */
export async function listen(app: Hono<any>, port: number, hostname: string): Promise<RunningServer> {
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno
  if (deno) {
    const server = deno.serve({ port, hostname, onListen: () => {} }, app.fetch)
    return { port: server.addr.port, close: (graceMs) => Promise.race([server.shutdown(), delay(graceMs)]) }
  }
  const { serve } = await import('@hono/node-server')
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
      resolve({
        port: info.port,
        close: (graceMs) => new Promise<void>((done) => {
          const timer = setTimeout(() => {
            ;(server as import('node:http').Server).closeAllConnections?.()
            done()
          }, graceMs)
          server.close(() => {
            clearTimeout(timer)
            done()
          })
          ;(server as import('node:http').Server).closeIdleConnections?.()
        }),
      })
    })
    server.once('error', reject)
  })
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
