import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { ROOT } from '../helpers/process.ts'

// A process manager runs `node --import tsx src/main.ts` with whatever `node` comes first on its PATH. On a Node
// older than package.json's engines.node, the native addons built for Node 22 crash it (a SIGSEGV on the first SQLite
// schema refresh, without a log line); Sightline must refuse to start instead, before any native addon loads.

const REQUIRED_MAJOR = 22

/** An older Node installed on this machine (`npm test` itself runs on the Node 22 that npm install brought). */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/local/bin/node', '/usr/bin/node', '/bin/node']) {
    if (!fs.existsSync(candidate)) continue
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim()
    if (Number(version.slice(1).split('.')[0]) < REQUIRED_MAJOR) return candidate
  }
  return undefined
}

/** Logs every native addon the process opens, on stderr, from before its first module loads. */
const TRACE_ADDONS = 'data:text/javascript,' + encodeURIComponent(
  'const open = process.dlopen; process.dlopen = function (module, file, ...rest) { ' +
  'process.stderr.write(`native addon loaded: ${file}\\n`); return open.call(this, module, file, ...rest) }')

interface Ended { code: number | null; signal: string | null; output: string }

async function run(command: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Ended> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  // a bound, not an expectation: a process that went on starting is stopped and reported as such
  const bound = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])))
  clearTimeout(bound)
  return { code, signal, output }
}

describe('started on a Node older than 22.18', () => {
  let db: TestDatabase
  let dataDir: string
  beforeAll(async () => {
    db = await freshDatabase()
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-old-node-')), 'data')
  })
  afterAll(async () => {
    await db.drop()
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true })
  })

  it('exits with status 1 and a message naming the required version, having loaded no native addon', async () => {
    const node = olderNode()
    const env = { DATABASE_URL: db.url, SIGHTLINE_DATA_DIR: dataDir, SIGHTLINE_PROCESS: 'worker' }
    // Without an older Node on this machine, the same check runs in a process told it is Node 20.
    const ended = node
      ? await run(node, ['--import', TRACE_ADDONS, '--import', 'tsx', 'src/main.ts'], env)
      : await run(process.execPath, ['--import', TRACE_ADDONS, '--import', 'tsx', '--eval',
        "import('./src/node-version.ts').then((m) => m.requireSupportedNode({ ...process.versions, node: '20.20.2' }, '/usr/bin/node'))"], env)
    expect(ended.signal).toBeNull()
    expect(ended.code).toBe(1)
    expect(ended.output).toContain('Sightline needs Node.js 22.18 or newer')
    expect(ended.output).toContain(`${node ?? '/usr/bin/node'} is Node.js`)
    expect(ended.output).toContain('node_modules/.bin/node --import tsx src/main.ts')
    expect(ended.output).not.toContain('native addon loaded')
    // nothing else ran: the data directory (where the secret key would go) was never created
    expect(fs.existsSync(dataDir)).toBe(false)
  })

  it('the Node that npm install brought starts the same command', async () => {
    const ended = await run(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', '--eval',
      "import('./src/node-version.ts').then((m) => { m.requireSupportedNode(); console.log('passed the Node check on', process.version) })"], {})
    expect(ended.code).toBe(0)
    expect(ended.output).toMatch(/passed the Node check on v(2[2-9]|[3-9]\d)\./)
  })
})
