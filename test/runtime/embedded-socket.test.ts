import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { useEmbeddedPostgres, type EmbeddedPostgres, connect } from '../../src/db/index.ts'

/** The embedded database reached over its Unix socket where the data dir allows one, and over TCP otherwise. */
const started: { pg: EmbeddedPostgres; dir: string }[] = []
afterEach(async () => {
  for (const { pg, dir } of started.splice(0)) {
    await pg.release()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

async function embeddedIn(dir: string) {
  fs.mkdirSync(dir, { recursive: true })
  fs.chmodSync(dir, 0o755)
  const pg = await useEmbeddedPostgres(dir, 'postgres')
  started.push({ pg, dir })
  return pg
}

/** The client address the server sees: null over a Unix socket. */
async function clientAddress(url: string) {
  const sql = connect(url, { max: 1 })
  try {
    const [row] = await sql<{ addr: string | null }[]>`select host(inet_client_addr()) as addr`
    return row.addr
  } finally {
    await sql.end()
  }
}

describe('the embedded database', () => {
  it('hands out its socket directory in the URL, and Sightline connects through it', async () => {
    const pg = await embeddedIn(fs.mkdtempSync(path.join(os.tmpdir(), 'sl-sock-')))
    expect(new URL(pg.url).searchParams.get('host')).toBe(pg.clusterDir)
    expect(await clientAddress(pg.url)).toBeNull()
  })

  it('keeps to TCP when its directory is too long for a socket path', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-tcp-'))
    fs.chmodSync(base, 0o755) // a root-run server's cluster stays in the data dir only when others can reach it
    const pg = await embeddedIn(path.join(base, 'a-data-directory-whose-path-is-longer-than-a-unix-socket-path-may-be-on-linux-or-macos'))
    expect(pg.clusterDir.length).toBeGreaterThan(90)
    expect(new URL(pg.url).searchParams.has('host')).toBe(false)
    expect(await clientAddress(pg.url)).toBe('127.0.0.1')
  })
})
