/** Payloads of every graphile-worker task, checked again when a task runs (old jobs outlive code changes). */
export interface TaskPayloads {
  cleanup_sessions: Record<string, never>
  refresh_schema: { job_id: string; data_source_id: number }
}

export function assertRefreshSchema(payload: unknown): TaskPayloads['refresh_schema'] {
  const p = payload as TaskPayloads['refresh_schema']
  if (typeof p?.job_id !== 'string' || !Number.isInteger(p?.data_source_id)) throw new Error('Invalid refresh_schema payload')
  return p
}
