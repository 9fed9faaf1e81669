import type { Task } from 'graphile-worker'
import { runExecution, type ExecutionContext } from '../../src/executions/run.ts'
import { assertExecuteQuery } from '../../src/jobs/tasks.ts'

/** Runs one execution; its row in `executions` carries the text, the state and the outcome. */
export const executeQueryTask = (ctx: ExecutionContext): Task => async (payload, helpers) => {
  const { execution_id } = assertExecuteQuery(payload)
  await runExecution(ctx, execution_id, helpers.job.locked_by ?? 'unknown')
}
