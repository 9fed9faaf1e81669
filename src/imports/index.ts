/** The front door of src/imports/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { runImport } from './run.ts'
export type { ImportJson } from './serialize.ts'
export { exportFiles, importFiles } from './files-service.ts'
export type { FilesReport } from './files-report.ts'
export { createImport, getImport, importTexts, listImports } from './service.ts'
export { freeSlug, rewriteQueryReferences, splitMasked, translateAlertOptions, translateQueryOptions, translateSchedule, usesTwelveColumns, versionAtLeast, widgetPosition } from './translate.ts'
