/** The front door of src/jobs/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { enqueue } from './enqueue.ts'
export { jobJson } from './serialize.ts'
export { getJob } from './service.ts'
export { findJobOrgId, findUnfinished, insertJob, removeQueuedJob, setJobStatus } from './store.ts'
export type { JobRow } from './store.ts'
export { assertExecuteQuery, assertRefreshQuery, assertRefreshSchema, assertRunImport, assertSendFailureReport, assertSendMail } from './tasks.ts'
export type { TaskPayloads } from './tasks.ts'
