import type { Sql } from '../db/index.ts'
import { log } from '../log.ts'
import type { StatementHandle } from '../runners/index.ts'
import { recordCancelHandle, type ExecutionRow } from './store.ts'

/**
 * How long a statement runs before where it runs is written down. Most statements end sooner and cost no write; a
 * worker that dies within this time leaves no handle, and its statement counts as not confirmed stopped.
 */
export const HANDLE_DELAY_MS = 100

/**
 * Writes down where an execution's statement runs in its engine (the runner's `onStatement`), for a recovery to stop
 * it should this worker die while it runs (src/workers/recovery.ts). A later handle (a new connection) replaces it.
 */
export class StatementHandleRecorder {
  private latest: StatementHandle | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private due = false
  private stopped = false

  constructor(private sql: Sql, private execution: Pick<ExecutionRow, 'id' | 'attempts'>) {}

  readonly onStatement = (handle: StatementHandle) => {
    if (this.stopped) return
    this.latest = handle
    if (this.due) return this.write()
    this.timer ??= setTimeout(() => {
      this.due = true
      this.write()
    }, HANDLE_DELAY_MS)
    this.timer.unref?.()
  }

  /** The statement has ended: nothing more to write. */
  stop() {
    this.stopped = true
    clearTimeout(this.timer)
  }

  private write() {
    if (this.stopped || !this.latest) return
    recordCancelHandle(this.sql, this.execution, this.latest)
      .catch((error) => log.warn('where a statement runs was not recorded', { execution: this.execution.id, error: String(error) }))
  }
}
