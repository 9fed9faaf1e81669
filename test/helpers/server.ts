import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig, type Config } from '../../src/config.ts'
import { startSightline } from '../../src/start.ts'
import { freshDatabase, type TestDatabase } from './db.ts'
import { WITHOUT_REFUSAL_PAUSES } from './sign-in-limits.ts'

export interface TestServer {
  /** The address the server listens on, e.g. http://127.0.0.1:43121 (no trailing slash). */
  url: string
  db: TestDatabase
  stop(): Promise<void>
}

/** The secret key test servers run with (unless a test sets its own), so tests can seal what they write directly. */
export const TEST_SECRET_KEY = 'test-secret-key'

/** Sightline's web process on a real port and a fresh database, the way a browser meets it. */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const db = await freshDatabase()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-web-'))
  let sightline
  try {
    const config: Config = {
      ...loadConfig({}), secretKey: TEST_SECRET_KEY, databaseUrl: db.url, port: 0, host: '127.0.0.1', role: 'web', dataDir,
      signInLimits: WITHOUT_REFUSAL_PAUSES, ...overrides,
    }
    sightline = await startSightline(config)
  } catch (error) {
    await db.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  const running = sightline
  return {
    url: `http://127.0.0.1:${running.port}`,
    db,
    stop: async () => {
      await running.stop()
      await db.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export { launchBrowser } from './chromium.ts'
