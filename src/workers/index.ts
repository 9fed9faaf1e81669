/** The front door of src/workers/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { Heartbeat } from './heartbeat.ts'
export { getQueryExecution, pollExecution } from './poll.ts'
export { recoveryMessages } from './recovery.ts'
