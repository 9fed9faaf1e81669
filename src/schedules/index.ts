/** The front door of src/schedules/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { FAILURE_REPORT_DELAY_MS, sendFailureReport } from './failure-report.ts'
export type { ReportDeps } from './failure-report.ts'
export { parseInterval } from './next-run.ts'
export { refreshQuery } from './refresh.ts'
export { ScheduleSchema, WEEKDAYS } from './schedule.ts'
export type { Schedule } from './schedule.ts'
export { restartBrokenSchedules, scheduleChanged, scheduledRunEnded } from './service.ts'
