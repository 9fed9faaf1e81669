import type { CliIo } from './io.ts'

const USAGE = 'Usage: npx sightline sign-in-link <email>\n  Prints a link that signs that user in once, within 15 minutes (recorded in the audit log).\n'

/**
 * `npx sightline sign-in-link <email>`: the break-glass sign-in (src/sign-in/break-glass.ts), run on the server itself.
 * Unlike the other commands it joins the database the server uses (DATABASE_URL, or the embedded one in
 * SIGHTLINE_DATA_DIR) and the same secret key: it is for when nobody can sign in to use the API.
 */
export async function runSignInLinkCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length !== 1 || args[0].startsWith('--')) {
    io.err(USAGE)
    return args[0] === '--help' ? 0 : 2
  }
  const { requireSupportedNode } = await import('../../src/node-version.ts')
  requireSupportedNode()
  const { loadConfig } = await import('../../src/config.ts')
  const { setLogLevel } = await import('../../src/log.ts')
  const { connect, useEmbeddedPostgres } = await import('../../src/db/index.ts')
  const { resolveSecretKey } = await import('../../src/credentials/index.ts')
  const { issueSignInLink } = await import('../../src/sign-in/index.ts')
  const config = loadConfig(io.env)
  setLogLevel('warn')
  const embedded = config.databaseUrl ? undefined : await useEmbeddedPostgres(config.dataDir)
  const sql = connect(config.databaseUrl ?? embedded!.url)
  try {
    const secretKey = resolveSecretKey(config.secretKey, config.dataDir)
    const { url, expiresAt } = await issueSignInLink({ sql, secretKey, config }, args[0])
    io.out(`${url}\n`)
    io.err(`This link signs ${args[0]} in once, until ${expiresAt.toISOString()}. Do not share it.\n`)
    return 0
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  } finally {
    await sql.end({ timeout: 5 })
    await embedded?.release()
  }
}
