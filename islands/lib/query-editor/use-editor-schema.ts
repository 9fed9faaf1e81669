import { useSchema } from '../editor/use-schema.ts'
import { useDatabricksSchema } from '../editor/use-databricks-schema.ts'
import type { SchemaTable } from '../editor/types.ts'

export interface EditorSchema {
  schema: SchemaTable[]
  loading: boolean
  refresh(): void
  /** A Databricks source's databases, one browsed at a time. */
  databases?: { list: readonly string[]; value: string | null; onChange(name: string): void }
  /** A Databricks table's columns arrive only when it is expanded. */
  onExpand?(table: string): void
}

/**
 * The schema of the chosen source (spec 2 §2): a Databricks source is browsed one database at a time; others list
 * their whole schema. Both hooks always run (hooks keep their order), the one not in use given no source.
 */
export function useEditorSchema(dataSourceId: number | null, databricks: boolean): EditorSchema {
  const plain = useSchema(databricks ? null : dataSourceId)
  const dbx = useDatabricksSchema(databricks ? dataSourceId : null)
  if (!databricks) return { schema: plain.schema, loading: plain.loading, refresh: () => void plain.refresh() }
  return {
    schema: dbx.tables, loading: dbx.loading, refresh: () => void dbx.refresh(),
    databases: { list: dbx.databases, value: dbx.database, onChange: dbx.choose }, onExpand: (table) => void dbx.expand(table),
  }
}
