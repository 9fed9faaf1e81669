/** The front door of src/monitoring/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { objectCounters } from './object-counters.ts'
export { outdatedQueries, rqStatus, systemStatus } from './service.ts'
export type { QueueJson, WorkerJobJson, WorkerJson } from './service.ts'
export { statusCountsCache } from './status-cache.ts'
