import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Deps } from '../deps.ts'
import { BadRequest, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { formatOfName, FORMATS_TEXT, looksLike, notWhatItSays, tableNameFor, excelToCsv, FILES_TYPE, filesRunner, LOCAL_DIRECTORY, LOCAL_FILES, RunnerError } from '../runners/index.ts'
import { iso } from '../shared/time.ts'
import * as files from './files-store.ts'
import { adminSource } from './service.ts'
import type { DataSourceRow } from './store.ts'

export const fileTexts = {
  notFilesSource: 'Files can be uploaded only to a Files source.',
  noFile: 'Choose a file to upload.',
  badName: 'A file name must be 1 to 255 characters, without slashes.',
  unsupported: FORMATS_TEXT,
}

/** A file as the API and the source's page list it. */
export const fileJson = (f: files.SourceFileRow) => ({
  name: f.name, table: f.table_name, format: f.format, size: f.size_bytes, uploaded_at: iso(f.created_at),
})

async function filesSource(deps: Deps, principal: Principal, id: number): Promise<DataSourceRow> {
  const ds = await adminSource(deps, principal, id)
  if (ds.type !== FILES_TYPE) throw new BadRequest(fileTexts.notFilesSource)
  return ds
}

export async function listSourceFiles(deps: Deps, principal: Principal, id: number) {
  await filesSource(deps, principal, id)
  return (await files.listFiles(deps.sql, id)).map(fileJson)
}

/** DuckDB reads the file as it would in a query: one that is not what its name says is refused now, not at run time. */
async function checkReadable(name: string, format: ReturnType<typeof formatOfName> & string, content: Buffer) {
  if (!looksLike(format, content.subarray(0, 8192))) throw new BadRequest(notWhatItSays(name, format))
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-upload-'))
  try {
    const local = path.join(directory, `check.${format === 'xlsx' ? 'csv' : format}`)
    fs.writeFileSync(local, format === 'xlsx' ? await excelToCsv(content) : content, { mode: 0o600 })
    const stream = await filesRunner.run({ [LOCAL_DIRECTORY]: directory + path.sep, [LOCAL_FILES]: [{ table: 'f', path: local, format: format === 'xlsx' ? 'csv' : format }] },
      'select * from f limit 1', { signal: AbortSignal.timeout(30_000), timeoutMs: 30_000 })
    for await (const _ of stream.batches) {
      // drained
    }
  } catch (e) {
    if (e instanceof RunnerError) throw new BadRequest(`${name} could not be read as ${format.toUpperCase()}: ${e.message.split('\n')[0]}`)
    throw e
  } finally {
    fs.rmSync(directory, { recursive: true, force: true })
  }
}

/**
 * `POST api/data_sources/{id}/files`: an admin adds a file to a Files source as a table named after it; the same name
 * again replaces that table's file. Checked before it is kept: its format by name, its bytes by a first read.
 */
export async function uploadSourceFile(deps: Deps, principal: Principal, id: number, name: string, content: Buffer) {
  const ds = await filesSource(deps, principal, id)
  if (!name.trim() || name.length > 255 || /[\\/]/.test(name)) throw new BadRequest(fileTexts.badName)
  const format = formatOfName(name)
  if (!format) throw new BadRequest(fileTexts.unsupported)
  await checkReadable(name, format, content)
  const existing = await files.listFiles(deps.sql, ds.id)
  const same = existing.find((f) => f.name === name)
  const table = same?.table_name ?? tableNameFor(name, new Set(existing.map((f) => f.table_name)))
  const sha256 = crypto.createHash('sha256').update(content).digest('hex')
  return audited(deps.sql, principal, { action: 'upload_file', objectType: 'datasource', objectId: ds.id, properties: { file: name, table } }, async (tx) =>
    fileJson(await files.saveFile(tx, { data_source_id: ds.id, name, table_name: table, format, content, sha256, size_bytes: content.length })))
}

/** `DELETE api/data_sources/{id}/files/{table}`: the table and its file are gone from the source. */
export async function deleteSourceFile(deps: Deps, principal: Principal, id: number, table: string) {
  const ds = await filesSource(deps, principal, id)
  await audited(deps.sql, principal, { action: 'delete_file', objectType: 'datasource', objectId: ds.id, properties: { table } }, async (tx) => {
    if (!(await files.deleteFile(tx, ds.id, table))) throw new NotFound()
  })
}
