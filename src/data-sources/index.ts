/** The front door of src/data-sources/: what the rest of Sightline may use of it (the structure test keeps it so). */

/** A data source by id, unchecked: for work already allowed (a run queued, a schedule due, a query being checked). */
export { findById as findDataSource } from './store.ts'

export { databricksColumns, databricksDatabases, databricksTables } from './databricks.ts'
export { deleteSourceFile, listSourceFiles, uploadSourceFile } from './files.ts'
export { addDataSourceToGroup, groupDataSources, removeDataSourceFromGroup, setGroupDataSourceViewOnly } from './group-access.ts'
export { LOCAL_ROOT, localDirectoryOf, openedConfig } from './local-files.ts'
export { refreshSchema } from './schema-refresh.ts'
export { dataSourceJson, dataSourceTypeJson } from './serialize.ts'
export { createDataSource, deleteDataSource, getAccessible, listDataSources, requireRun, runnerConfig, runnerFor, saveDataSource, schemaOrJob, testDataSource } from './service.ts'
export { accessThroughGroups, addToDefaultGroup, findById, insert, nameTaken, readableCount } from './store.ts'
export type { AccessibleDataSourceRow, DataSourceRow } from './store.ts'
