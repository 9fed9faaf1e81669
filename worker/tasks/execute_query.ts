import type { Task } from 'graphile-worker'
import { runExecution, type ExecutionContext } from '../../src/executions/index.ts'
import { assertExecuteQuery } from '../../src/jobs/index.ts'

/**
 * Runs an execution, then the next ones waiting for the same source while it holds the slot; each row in
 * `executions` carries its text, state and outcome.
 */
export const executeQueryTask = (ctx: ExecutionContext): Task => async (payload, helpers) => {
  const { execution_id } = assertExecuteQuery(payload)
  await runExecution(ctx, execution_id, helpers.job.locked_by ?? 'unknown', helpers.abortSignal)
}
