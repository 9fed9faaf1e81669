import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runMigrations } from 'graphile-worker'
import { quietLogger, startWorker, type RunningWorker } from '../worker/main.ts'
import { createApp } from './app.ts'
import { sealLegacyKeys } from './seal-legacy-keys.ts'
import { resolveSecretKey } from './credentials/index.ts'
import type { Config } from './config.ts'
import { useEmbeddedPostgres, type EmbeddedPostgres, migrate, connect, superviseEmbedded, type Supervisor } from './db/index.ts'
import { createDeps } from './create-deps.ts'
import { FEATURES } from './features.ts'
import { loadAssets } from './assets/index.ts'
import { log } from './log.ts'
import { listen, type RunningServer } from './server.ts'

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const SHUTDOWN_GRACE_MS = 10_000

export interface Sightline {
  port: number | undefined
  databaseUrl: string
  stop(): Promise<void>
}

export interface StartOptions {
  /** The embedded database could not be restarted: this process cannot serve any more. */
  onDatabaseLost?: (error: unknown) => void
}

/**
 * Start the parts of Sightline this process runs: the embedded database when no DATABASE_URL is set (kept running by
 * a supervisor), migrations (under an advisory lock, so several processes may start at once), then the web server
 * and/or the worker.
 */
export async function startSightline(config: Config, options: StartOptions = {}): Promise<Sightline> {
  const began = Date.now()
  let embedded: EmbeddedPostgres | undefined
  let supervisor: Supervisor | undefined
  if (!config.databaseUrl) {
    embedded = await useEmbeddedPostgres(config.dataDir)
    supervisor = superviseEmbedded(embedded, { onGiveUp: options.onDatabaseLost })
  }
  const databaseUrl = config.databaseUrl ?? embedded!.url
  const sql = connect(databaseUrl)
  let server: RunningServer | undefined
  let runner: RunningWorker | undefined
  let bus: { stop(): Promise<void> } | undefined
  try {
    const applied = await migrate(sql)
    if (applied.length) log.info('migrations applied', { applied })
    // web processes enqueue jobs too, so the job queue's schema must exist before the first request
    await runMigrations({ connectionString: databaseUrl, logger: quietLogger })
    const secretKey = resolveSecretKey(config.secretKey, config.dataDir)
    // keys a migration could hash but not seal (it has no secret key) lose their plain copy before anything is served
    await sealLegacyKeys(sql, secretKey)
    if (config.role !== 'worker') {
      const deps = createDeps({ sql, config, secretKey, assets: loadAssets(DIST), features: FEATURES })
      await deps.bus.listen()
      bus = { stop: async () => { deps.database.stop(); await deps.bus.stop(); await deps.executionsDone.stop() } }
      server = await listen(createApp(deps), config.port, config.host)
      log.info('web server listening', { port: server.port })
    }
    if (config.role !== 'web') runner = await startWorker({ connectionString: databaseUrl, secretKey, config, features: FEATURES })
  } catch (error) {
    await sql.end({ timeout: 1 })
    await supervisor?.stop()
    await embedded?.release()
    throw error
  }
  log.info('Sightline started', { role: config.role, ms: Date.now() - began, embedded: !!embedded })

  let stopping: Promise<void> | undefined
  return {
    port: server?.port,
    databaseUrl,
    // Order matters: stop taking requests and jobs, let those in flight finish, then close the database.
    stop: () => (stopping ??= (async () => {
      await Promise.all([server?.close(SHUTDOWN_GRACE_MS), runner?.stop()])
      await bus?.stop()
      await sql.end({ timeout: 5 })
      await supervisor?.stop()
      await embedded?.release()
      log.info('Sightline stopped')
    })()),
  }
}
