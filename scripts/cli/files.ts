import fs from 'node:fs'
import path from 'node:path'
import { call } from './call.ts'
import { parseOptions, printable, type CliIo } from './io.ts'

/** The folders of a git export, one per kind, and the files in them Sightline writes and reads. */
const FOLDERS = ['queries', 'dashboards', 'alerts', 'destinations', 'snippets', 'groups']
const OURS = /\.(sql|yaml|yml)$/
/** A name the server may have us write: in one of the folders, named by a key (never a path out of `dir`). */
const WRITABLE = new RegExp(`^(${FOLDERS.join('|')})/[a-z0-9][a-z0-9_-]{0,99}\\.(sql|yaml)$`)

export const EXPORT_USAGE = `Usage: npx sightline export <dir> [--to <url>] [--to-key <key>]

  Writes Sightline's queries, dashboards, alerts, destinations (without secrets), snippets and groups into <dir>, one
  file per object named by its key, for a git repository. Files of objects that are gone are removed.

  --to        Sightline's address (default http://localhost:5000)
  --to-key    a Sightline admin's API key (default: the SIGHTLINE_API_KEY environment variable)
`

export const FILES_IMPORT_USAGE = `Usage: npx sightline import <dir> [--prune] [--dry-run] [--to <url>] [--to-key <key>]

  Applies the files of an export (see npx sightline export) to Sightline: objects are created or updated by key;
  nothing is written when nothing changed.

  --prune     archive the queries and dashboards that have no file, and delete such alerts
  --dry-run   write nothing; show what would change
  --to        Sightline's address (default http://localhost:5000)
  --to-key    a Sightline admin's API key (default: the SIGHTLINE_API_KEY environment variable)
`

/** `<dir>` and the connection options; a string is the complaint to print. */
function target(args: string[], io: CliIo, flags: string[], usage: string): { dir: string; to: string; key: string; flags: Set<string> } | string {
  const [dir, ...rest] = args
  if (!dir || dir.startsWith('--')) return `Name the folder.\n\n${usage}`
  const parsed = parseOptions(rest, { values: ['to', 'to-key'], flags })
  if (typeof parsed === 'string') return `${parsed}\n\n${usage}`
  const key = parsed.values['to-key'] ?? io.env.SIGHTLINE_API_KEY
  if (!key) return `Missing --to-key (or SIGHTLINE_API_KEY).\n\n${usage}`
  return { dir, to: (parsed.values.to ?? 'http://localhost:5000').replace(/\/+$/, ''), key, flags: parsed.flags }
}

async function request(io: CliIo, t: { to: string; key: string }, method: string, route: string, body?: unknown) {
  try {
    return await call(io, method, `${t.to}${route}`, t.key, body)
  } catch (error) {
    io.err(`Sightline at ${t.to} did not answer: ${error instanceof Error ? error.message : String(error)}\n`)
    return null
  }
}

export async function runExportCommand(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(EXPORT_USAGE)
    return 0
  }
  const t = target(args, io, [], EXPORT_USAGE)
  if (typeof t === 'string') {
    io.err(t)
    return 2
  }
  const answer = await request(io, t, 'GET', '/api/content')
  if (!answer) return 1
  if (answer.status !== 200) {
    io.err(`Sightline refused the export (${answer.status}): ${printable(answer.body?.message)}\n`)
    return 1
  }
  const files = Object.fromEntries(Object.entries(answer.body.files as Record<string, string>).filter(([name]) => WRITABLE.test(name)))
  let written = 0
  let removed = 0
  for (const folder of FOLDERS) {
    const at = path.join(t.dir, folder)
    fs.mkdirSync(at, { recursive: true })
    // a file whose object is gone goes too, so the repository's history shows it
    for (const name of fs.readdirSync(at)) {
      if (OURS.test(name) && files[`${folder}/${name}`] === undefined) {
        fs.rmSync(path.join(at, name))
        removed++
      }
    }
  }
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(t.dir, ...name.split('/'))
    // unchanged files are left untouched
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue
    fs.writeFileSync(file, text)
    written++
  }
  io.out(`${Object.keys(files).length} files in ${printable(t.dir)}: ${written} written, ${removed} removed.\n`)
  return 0
}

/** Every file of the kinds' folders under `dir`, by its path there (`queries/revenue.sql`). */
export function readExport(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const folder of FOLDERS) {
    const at = path.join(dir, folder)
    if (!fs.existsSync(at)) continue
    for (const name of fs.readdirSync(at).sort()) {
      if (OURS.test(name) && fs.statSync(path.join(at, name)).isFile()) files[`${folder}/${name}`] = fs.readFileSync(path.join(at, name), 'utf8')
    }
  }
  return files
}

interface FilesRun {
  dry_run: boolean
  kinds: Record<string, { created: number; updated: number; unchanged: number; pruned: number }>
  errors: { file: string; line: number | null; message: string }[]
  notes: string[]
}

export function filesSummary(run: FilesRun): string {
  const head = ['kind', 'created', 'updated', 'unchanged', 'pruned']
  const table = [head, ...Object.entries(run.kinds).map(([kind, k]) => [kind, String(k.created), String(k.updated), String(k.unchanged), String(k.pruned)])]
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i].length)))
  const lines: string[] = []
  for (const [n, r] of table.entries()) {
    lines.push(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
    if (n === 0) lines.push(widths.map((w) => '-'.repeat(w)).join('  '))
  }
  if (run.errors.length) lines.push('', 'Not applied:', ...run.errors.map((e) => `  ${printable(e.file)}${e.line ? `:${e.line}` : ''}: ${printable(e.message)}`))
  if (run.notes.length) lines.push('', 'Notes:', ...run.notes.map((n) => `  ${printable(n)}`))
  lines.push('', run.dry_run ? 'Dry run: nothing was written.' : Object.values(run.kinds).some((k) => k.created + k.updated + k.pruned) ? 'Applied.' : 'Nothing changed; nothing was written.')
  return lines.join('\n') + '\n'
}

/** `npx sightline import <dir>`: the files of an export sent to the import API; an exit code of 1 when a file was not applied. */
export async function runFilesImport(args: string[], io: CliIo): Promise<number> {
  const t = target(args, io, ['prune', 'dry-run'], FILES_IMPORT_USAGE)
  if (typeof t === 'string') {
    io.err(t)
    return 2
  }
  if (!fs.existsSync(t.dir) || !fs.statSync(t.dir).isDirectory()) {
    io.err(`${printable(t.dir)} is not a folder.\n`)
    return 2
  }
  const files = readExport(t.dir)
  const answer = await request(io, t, 'POST', '/api/imports', { files, prune: t.flags.has('prune'), dry_run: t.flags.has('dry-run') })
  if (!answer) return 1
  if (answer.status !== 200) {
    io.err(`Sightline refused the import (${answer.status}): ${printable(answer.body?.message)}\n`)
    return 1
  }
  io.out(filesSummary(answer.body))
  return answer.body.errors.length ? 1 : 0
}
