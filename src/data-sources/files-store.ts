import type { Db } from '../db/index.ts'

/** A file of a Files source, without its bytes. */
export interface SourceFileRow {
  id: number
  data_source_id: number
  name: string
  table_name: string
  format: string
  sha256: string
  size_bytes: number
  created_at: Date
}

const listed = (db: Db) => db`id, data_source_id, name, table_name, format, sha256, size_bytes::float8 as size_bytes, created_at`

export async function listFiles(db: Db, dataSourceId: number): Promise<SourceFileRow[]> {
  return db<SourceFileRow[]>`select ${listed(db)} from data_source_files where data_source_id = ${dataSourceId} order by table_name`
}

export async function fileContent(db: Db, id: number): Promise<Buffer | undefined> {
  const [row] = await db<{ content: Buffer }[]>`select content from data_source_files where id = ${id}`
  return row?.content
}

/** A new file, or the same file name uploaded again (its table keeps its name and gets the new bytes). */
export async function saveFile(db: Db, f: Omit<SourceFileRow, 'id' | 'created_at'> & { content: Buffer }): Promise<SourceFileRow> {
  const [row] = await db<SourceFileRow[]>`
    insert into data_source_files (data_source_id, name, table_name, format, content, sha256, size_bytes)
    values (${f.data_source_id}, ${f.name}, ${f.table_name}, ${f.format}, ${f.content}, ${f.sha256}, ${f.size_bytes})
    on conflict (data_source_id, table_name) do update
       set name = excluded.name, format = excluded.format, content = excluded.content, sha256 = excluded.sha256,
           size_bytes = excluded.size_bytes, created_at = now()
    returning ${listed(db)}`
  return row
}

export async function deleteFile(db: Db, dataSourceId: number, tableName: string): Promise<boolean> {
  const rows = await db`delete from data_source_files where data_source_id = ${dataSourceId} and table_name = ${tableName} returning id`
  return rows.length > 0
}
