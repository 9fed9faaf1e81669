import { send } from '../http.ts'
import { optionText, type DestinationKind } from './kind.ts'

const EVENTS_API = 'https://events.pagerduty.com/v2/enqueue'

/**
 * PagerDuty Events API v2 (reference §6.5): triggered opens an incident (`trigger`), ok resolves it (`resolve`), both
 * under the notification's dedup key, so a retried trigger is one incident and the resolve closes that incident;
 * unknown sends nothing. Summary: custom subject, else the `description` option, else "Alert: <name>".
 */
export const pagerduty: DestinationKind = {
  type: 'pagerduty',
  name: 'PagerDuty',
  icon: 'creative-commons-pd-alt',
  escaping: 'text',
  configurationSchema: {
    type: 'object',
    properties: {
      integration_key: { type: 'string', title: 'PagerDuty Service Integration Key' },
      description: { type: 'string', title: 'Description for the event, defaults to alert name' },
    },
    secret: ['integration_key'],
    required: ['integration_key'],
  },
  async send({ options, n, texts }) {
    if (n.alert.state === 'unknown') return { status: null, detail: 'Nothing sent: PagerDuty is told only when an alert triggers or goes back to normal.' }
    const payload: Record<string, unknown> = {
      summary: texts.subject ?? optionText(options, 'description') ?? `Alert: ${n.alert.name}`,
      severity: 'error',
      source: 'sightline',
    }
    if (texts.body !== null) payload.custom_details = texts.body
    return send({
      url: EVENTS_API,
      body: {
        routing_key: optionText(options, 'integration_key') ?? '',
        event_action: n.alert.state === 'triggered' ? 'trigger' : 'resolve',
        dedup_key: n.dedupKey,
        payload,
        client: 'Sightline',
        client_url: n.alert.url,
      },
    })
  },
}
