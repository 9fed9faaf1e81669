import { FILE_KINDS, FileError, KEY_PATTERN, parsePath, readQueryFile, readYamlFile, type FileKind } from './files-docs.ts'
import { readDoc, type Doc } from './files-kinds.ts'

/** What an import of files did, per kind, and which files it could not use and why (file, line, message). */
export interface KindCounts { created: number; updated: number; unchanged: number; pruned: number }
export interface FileProblem { file: string; line: number | null; message: string }
export interface FilesReport {
  dry_run: boolean
  prune: boolean
  kinds: Record<FileKind, KindCounts>
  errors: FileProblem[]
  notes: string[]
}

export const emptyFilesReport = (dryRun: boolean, prune: boolean): FilesReport => ({
  dry_run: dryRun, prune, errors: [], notes: [],
  kinds: Object.fromEntries(FILE_KINDS.map((k) => [k, { created: 0, updated: 0, unchanged: 0, pruned: 0 }])) as Record<FileKind, KindCounts>,
})

/** How many objects the run wrote (created, updated, archived or deleted). */
export const changedCount = (r: FilesReport) => Object.values(r.kinds).reduce((n, k) => n + k.created + k.updated + k.pruned, 0)

/** The good files by kind and key, and the keys of files that could not be read (their objects are left alone). */
export type Parsed = Record<FileKind, Map<string, { path: string; doc: Doc }>> & { errored: Record<FileKind, Set<string>> }

/** Reads every file before anything is written: a file that is not one of Sightline's is noted and left out. */
export function parseFiles(files: Record<string, string>, report: FilesReport): Parsed {
  const parsed = Object.fromEntries(FILE_KINDS.map((k) => [k, new Map()])) as unknown as Parsed
  parsed.errored = Object.fromEntries(FILE_KINDS.map((k) => [k, new Set()])) as Parsed['errored']
  for (const path of Object.keys(files).sort()) {
    const where = parsePath(path)
    if (!where) {
      report.notes.push(`${path}: not a file of a Sightline export (queries/<key>.sql, or dashboards, alerts, destinations, snippets or groups/<key>.yaml); left out.`)
      continue
    }
    const { kind, key } = where
    try {
      if (!KEY_PATTERN.test(key)) throw new FileError('the file name is not a key (lower-case letters, digits, "-" and "_", at most 100)')
      if (parsed[kind].has(key) || parsed.errored[kind].has(key)) throw new FileError(`another file has the key "${key}"`)
      const content = files[path]
      const doc = kind === 'queries'
        ? (() => { const q = readQueryFile(content); return readDoc(kind, q.header, q.text, q.textLine) })()
        : readDoc(kind, readYamlFile(content), '')
      parsed[kind].set(key, { path, doc })
    } catch (error) {
      if (!(error instanceof FileError)) throw error
      report.errors.push({ file: path, line: error.line ?? null, message: error.message })
      parsed.errored[kind].add(key)
    }
  }
  return parsed
}
