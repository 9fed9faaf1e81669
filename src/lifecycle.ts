import { loadConfig } from './config.ts'
import { log, setLogLevel } from './log.ts'
import { startSightline, type Sightline } from './start.ts'

/** Starts this process's parts of Sightline, and stops them in order on a signal (src/main.ts loads it). */
const config = loadConfig()
setLogLevel(config.logLevel)

let stopping = false
let starting: Promise<Sightline | undefined> | undefined

async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return
  stopping = true
  log.info('shutting down', { signal })
  const force = setTimeout(() => process.exit(1), 20_000)
  // a signal during start-up waits for the start to finish, so nothing is left half-started
  const sightline = await starting
  await sightline?.stop().catch((error) => log.error('shutdown failed', { error: String(error) }))
  clearTimeout(force)
  process.exit(exitCode)
}

// Handlers first: a signal that arrives while starting must still shut down in order.
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
// While shutting down, connections closing under us are expected, not crashes.
process.on('uncaughtException', (error) => {
  if (stopping) return
  // a reset read on a socket its owner already let go of (postgres.js drops a dead connection's listeners before the
  // kernel's last word arrives when the database goes away): nothing is left to serve on it, so it is no crash
  if (isResetOfDroppedSocket(error)) return void log.warn('a dropped connection was reset', { error: error.message })
  log.error('uncaught exception', { error: error.stack ?? String(error) })
  process.exit(1)
})

function isResetOfDroppedSocket(error: Error & { code?: string; syscall?: string }): boolean {
  return error.code === 'ECONNRESET' && error.syscall === 'read' && /onStreamRead/.test(error.stack ?? '')
}

// An embedded database that cannot be brought back leaves nothing to serve: exit with an error, so a service manager
// (systemd, Docker, Kubernetes) restarts Sightline, and with it the database, or tells an operator.
const onDatabaseLost = () => void shutdown('embedded database lost', 1)

starting = startSightline(config, { onDatabaseLost }).catch((error) => {
  log.error('Sightline failed to start', { error: error instanceof Error ? error.message : String(error) })
  process.exit(1)
})
await starting
