import { destinationTexts } from '../shared/destination-texts.ts'
import type { AlertNotification } from './notification.ts'

/**
 * The notification Send Test sends (spec 3 §2): a triggered alert on a small made-up result, with links into this
 * installation, so each service shows what a real one would look like.
 */
export function sampleNotification(base: string, destinationId: number): AlertNotification {
  const now = new Date().toISOString()
  return {
    alert: {
      id: 0, name: destinationTexts.sampleAlertName, state: 'triggered', url: `${base}/alerts/0`,
      options: { column: 'value', op: '>', value: 1, selector: 'first', muted: false },
      rearm: null, user_id: null, last_triggered_at: now, created_at: now, updated_at: now,
    },
    query: { id: 0, name: destinationTexts.sampleQueryName, url: `${base}/queries/0` },
    value: 2,
    result: { columns: [{ name: 'value', friendly_name: 'value', type: 'integer' }], rows: [{ value: 2 }] },
    metadata: { Test: true },
    dedupKey: `sightline-test-${destinationId}`,
  }
}
