import { summaryRows, type InstanceRunJson } from '../../src/shared/import-summary.ts'
import { FILES_IMPORT_USAGE, runFilesImport } from './files.ts'
import { call } from './call.ts'
import { parseOptions, printable, type CliIo } from './io.ts'

const USAGE = `Usage: npx sightline import --from <url> --key <key> [--to <url>] [--to-key <key>] [--dry-run] [--keep-ids]

  --from      address of the running instance of the established tool (any version)
  --key       an admin's API key on that instance (kept by Sightline only while the import runs)
  --to        Sightline's address (default http://localhost:5000)
  --to-key    a Sightline admin's API key (default: the SIGHTLINE_API_KEY environment variable)
  --dry-run   write nothing; show what would come across
  --keep-ids  keep the old ids (only when Sightline holds no queries or dashboards yet), so old links keep working
`

const POLL_MS = 500
const BAR = 24

function bar(done: number, total: number): string {
  const filled = total ? Math.round((done / total) * BAR) : BAR
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}]`
}

function progressLines(run: InstanceRunJson): string[] {
  const kinds = Object.entries(run.progress).filter(([k]) => k !== 'reading')
  if (!kinds.length) return [run.report.reading ? `reading ${printable(run.report.reading)} …` : `${run.status} …`]
  return kinds.map(([kind, p]) => `${kind.padEnd(15)} ${bar(p.done, p.total)} ${String(p.done).padStart(6)} / ${p.total}`)
}

/** The summary table, then what was skipped and why, what to fill in by hand, and notes. */
export function summary(run: InstanceRunJson): string {
  const lines: string[] = []
  const rows = summaryRows(run)
  const head = ['kind', 'brought', 'updated', 'skipped', 'to fill in']
  const table = [head, ...rows.map((r) => [r.kind, String(r.brought), String(r.updated), String(r.skipped), String(r.fillIn)])]
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i].length)))
  for (const [n, r] of table.entries()) {
    lines.push(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
    if (n === 0) lines.push(widths.map((w) => '-'.repeat(w)).join('  '))
  }
  const kinds = Object.entries(run.report.kinds ?? {})
  const fill = kinds.flatMap(([kind, k]) => k.fill_in.map((f) => `  ${kind}: ${printable(f.name)}: ${printable(f.what)}`))
  const skipped = kinds.flatMap(([kind, k]) => k.skipped.map((s) => `  ${kind} ${printable(s.id)} ${printable(s.name)}: ${printable(s.why)}`))
  const notes = [...(run.report.notes ?? []), ...kinds.flatMap(([, k]) => k.notes)].map((n) => `  ${printable(n)}`)
  if (fill.length) lines.push('', 'To fill in by hand:', ...fill)
  if (skipped.length) lines.push('', 'Skipped:', ...skipped)
  if (notes.length) lines.push('', 'Notes:', ...notes)
  if (run.report.refreshes_queued) lines.push('', `${run.report.refreshes_queued} dashboard queries were queued to run.`)
  if (run.dry_run && run.status === 'done') lines.push('', 'Dry run: nothing was written.')
  return lines.join('\n') + '\n'
}

export async function runImportCommand(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(`${USAGE}\n${FILES_IMPORT_USAGE}`)
    return 0
  }
  // a folder of exported files rather than a running instance
  if (args[0] && !args[0].startsWith('--')) return runFilesImport(args, io)
  const parsed = parseOptions(args, { values: ['from', 'key', 'to', 'to-key'], flags: ['dry-run', 'keep-ids'] })
  if (typeof parsed === 'string') {
    io.err(`${parsed}\n\n${USAGE}`)
    return 2
  }
  const { values, flags } = parsed
  const toKey = values['to-key'] ?? io.env.SIGHTLINE_API_KEY
  const missing = [!values.from && '--from', !values.key && '--key', !toKey && '--to-key (or SIGHTLINE_API_KEY)'].filter(Boolean)
  if (missing.length) {
    io.err(`Missing ${missing.join(', ')}.\n\n${USAGE}`)
    return 2
  }
  const to = (values.to ?? 'http://localhost:5000').replace(/\/+$/, '')
  let started
  try {
    started = await call(io, 'POST', `${to}/api/imports`, toKey!, { from_url: values.from, api_key: values.key, dry_run: flags.has('dry-run'), keep_ids: flags.has('keep-ids') })
  } catch (error) {
    io.err(`Sightline at ${to} did not answer: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  if (started.status !== 202) {
    io.err(`Sightline refused the import (${started.status}): ${printable(started.body?.message)}\n`)
    return 1
  }
  let run = started.body as InstanceRunJson
  let drawn = 0
  let last = ''
  while (run.status === 'queued' || run.status === 'running') {
    const lines = progressLines(run)
    if (io.tty) {
      // redraw the bars in place
      io.out((drawn ? `\x1b[${drawn}A` : '') + lines.map((l) => `\x1b[2K${l}\n`).join(''))
      drawn = lines.length
    } else if (lines.join('\n') !== last) {
      io.out(lines.join('\n') + '\n')
      last = lines.join('\n')
    }
    await io.pause(POLL_MS)
    const polled = await call(io, 'GET', `${to}/api/imports/${run.id}`, toKey!)
    if (polled.status !== 200) {
      io.err(`Sightline stopped answering about the import (${polled.status}): ${printable(polled.body?.message)}\n`)
      return 1
    }
    run = polled.body
  }
  io.out(progressLines(run).join('\n') + '\n\n')
  io.out(`Import from ${printable(run.from_url)}${run.origin_version ? ` (version ${printable(run.origin_version)})` : ''}: ${run.status}\n\n`)
  io.out(summary(run))
  if (run.status === 'failed') {
    io.err(`\nThe import failed: ${printable(run.error)}\n`)
    return 1
  }
  return 0
}
