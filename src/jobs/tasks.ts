/** Payloads of every graphile-worker task, checked again when a task runs (old jobs outlive code changes). */
export interface TaskPayloads {
  cleanup_sessions: Record<string, never>
  refresh_schema: { job_id: string; data_source_id: number }
  execute_query: { execution_id: string }
  cleanup_results: Record<string, never>
  refresh_query: { query_id: number }
  restart_schedules: Record<string, never>
  /** One mail, ready to send: the worker adds the SMTP settings, so no password ever sits in the queue. */
  send_mail: { to: string; subject: string; text: string; html: string }
  /** Gather a user's failed scheduled queries not yet reported into one mail (one keyed job per user). */
  send_failure_report: { user_id: number }
  /** One run of the importer (src/imports/): read the old instance, write what it holds. */
  run_import: { import_id: number }
}

export function assertRunImport(payload: unknown): TaskPayloads['run_import'] {
  const p = payload as TaskPayloads['run_import']
  if (!Number.isInteger(p?.import_id)) throw new Error('Invalid run_import payload')
  return p
}

export function assertSendFailureReport(payload: unknown): TaskPayloads['send_failure_report'] {
  const p = payload as TaskPayloads['send_failure_report']
  if (!Number.isInteger(p?.user_id)) throw new Error('Invalid send_failure_report payload')
  return p
}

export function assertSendMail(payload: unknown): TaskPayloads['send_mail'] {
  const p = payload as TaskPayloads['send_mail']
  if (!['to', 'subject', 'text', 'html'].every((k) => typeof (p as Record<string, unknown> | null)?.[k] === 'string')) {
    throw new Error('Invalid send_mail payload')
  }
  return p
}

export function assertRefreshQuery(payload: unknown): TaskPayloads['refresh_query'] {
  const p = payload as TaskPayloads['refresh_query']
  if (!Number.isInteger(p?.query_id)) throw new Error('Invalid refresh_query payload')
  return p
}

export function assertExecuteQuery(payload: unknown): TaskPayloads['execute_query'] {
  const p = payload as TaskPayloads['execute_query']
  if (typeof p?.execution_id !== 'string') throw new Error('Invalid execute_query payload')
  return p
}

export function assertRefreshSchema(payload: unknown): TaskPayloads['refresh_schema'] {
  const p = payload as TaskPayloads['refresh_schema']
  if (typeof p?.job_id !== 'string' || !Number.isInteger(p?.data_source_id)) throw new Error('Invalid refresh_schema payload')
  return p
}
