import { runExportCommand } from './cli/files.ts'
import { runImportCommand } from './cli/import.ts'
import { runSignInLinkCommand } from './cli/sign-in-link.ts'
import type { CliIo } from './cli/io.ts'
import { nodeIo } from './cli/io.ts'

/**
 * `npx sightline <command>`: a small dispatcher, one file per command under scripts/cli/. Each is a thin client of
 * Sightline's HTTP API (so it works against any deployment, local or not), but for `sign-in-link`, which runs on the
 * server itself when nobody can sign in.
 */
const COMMANDS: Record<string, { summary: string; run: (args: string[], io: CliIo) => Promise<number> }> = {
  export: { summary: 'Write queries, dashboards, alerts and more to a folder, one file per object, for git', run: runExportCommand },
  import: { summary: 'Bring everything across from a running instance of the established tool, or apply a folder of exported files', run: runImportCommand },
  'sign-in-link': { summary: 'Print a one-time sign-in link for a user (on the server; for when nobody can sign in)', run: runSignInLinkCommand },
}

export async function main(argv: string[], io: CliIo = nodeIo()): Promise<number> {
  const [command, ...rest] = argv
  const found = command ? COMMANDS[command] : undefined
  if (!found) {
    if (command && command !== 'help' && command !== '--help' && command !== '-h') io.err(`Unknown command: ${command}\n`)
    io.out('Usage: npx sightline <command> [options]\n\nCommands:\n')
    for (const [name, c] of Object.entries(COMMANDS)) io.out(`  ${name.padEnd(12)} ${c.summary}\n`)
    io.out('\nRun npx sightline <command> --help for its options.\n')
    return command && !['help', '--help', '-h'].includes(command) ? 2 : 0
  }
  return found.run(rest, io)
}
