import { requireSupportedNode } from './node-version.ts'

/**
 * `sightline <command>`: what an operator does on the server itself. For now one command, `sign-in-link <email>`,
 * the break-glass sign-in (src/sign-in/break-glass.ts). It joins the database the server uses (DATABASE_URL, or the
 * embedded one in SIGHTLINE_DATA_DIR) and the same secret key.
 */
requireSupportedNode()
const USAGE = 'Usage: sightline sign-in-link <email>\n  Prints a link that signs that user in once, within 15 minutes (recorded in the audit log).'

const [command, ...args] = process.argv.slice(2)
if (command !== 'sign-in-link' || args.length !== 1) {
  console.error(USAGE)
  process.exit(command === undefined || command === 'help' || command === '--help' ? 0 : 2)
}

const { loadConfig } = await import('./config.ts')
const { setLogLevel } = await import('./log.ts')
const { connect } = await import('./db/index.ts')
const { useEmbeddedPostgres } = await import('./db/index.ts')
const { resolveSecretKey } = await import('./credentials/index.ts')
const { issueSignInLink } = await import('./sign-in/index.ts')

const config = loadConfig()
setLogLevel('warn')
const embedded = config.databaseUrl ? undefined : await useEmbeddedPostgres(config.dataDir)
const sql = connect(config.databaseUrl ?? embedded!.url)
let exitCode = 0
try {
  const secretKey = resolveSecretKey(config.secretKey, config.dataDir)
  const { url, expiresAt } = await issueSignInLink({ sql, secretKey, config }, args[0])
  console.log(url)
  console.error(`This link signs ${args[0]} in once, until ${expiresAt.toISOString()}. Do not share it.`)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  exitCode = 1
} finally {
  await sql.end({ timeout: 5 })
  await embedded?.release()
}
process.exit(exitCode)
