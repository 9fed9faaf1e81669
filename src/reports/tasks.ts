/** Payloads of the reports' graphile-worker tasks, checked when a task runs (old jobs outlive code changes). */
const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0

export function assertSendReport(payload: unknown): { send_id: number } {
  const p = payload as { send_id: number }
  if (!isId(p?.send_id)) throw new Error('Invalid send_report payload')
  return p
}

export function assertDeliverReport(payload: unknown): { delivery_id: number } {
  const p = payload as { delivery_id: number }
  if (!isId(p?.delivery_id)) throw new Error('Invalid deliver_report payload')
  return p
}
