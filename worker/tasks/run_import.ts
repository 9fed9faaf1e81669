import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { runImport } from '../../src/imports/index.ts'
import { assertRunImport } from '../../src/jobs/index.ts'

/** An admin started an import (POST api/imports): run it here, away from the web process. */
export const runImportTask = (sql: Sql, secretKey: string): Task => async (payload) => {
  await runImport({ sql, secretKey }, assertRunImport(payload).import_id)
}
