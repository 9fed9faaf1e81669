import { destinationUrl, send } from '../http.ts'
import { optionText, type DestinationKind } from './kind.ts'

/**
 * A plain webhook (reference §6.5), in the established tool's shape so its receivers work unchanged:
 * `{event: "alert_state_change", alert: <alert as full=False: query_id, user_id> + description + title, url_base,
 * metadata}`, with HTTP Basic authentication when a username is set.
 */
export const webhook: DestinationKind = {
  type: 'webhook',
  name: 'Webhook',
  icon: 'fa-bolt',
  escaping: 'text',
  configurationSchema: {
    type: 'object',
    properties: { url: { type: 'string' }, username: { type: 'string' }, password: { type: 'string' } },
    required: ['url'],
    secret: ['password', 'url'],
  },
  send({ options, n, texts, urlBase }) {
    const url = destinationUrl(options.url)
    const a = n.alert
    const alert = {
      id: a.id,
      name: a.name,
      options: a.options,
      state: a.state,
      last_triggered_at: a.last_triggered_at ?? null,
      updated_at: a.updated_at ?? null,
      created_at: a.created_at ?? null,
      rearm: a.rearm ?? null,
      query_id: n.query.id,
      user_id: a.user_id ?? null,
      // as the established tool: the rendered custom texts, empty when none
      description: texts.body ?? '',
      title: texts.subject ?? '',
    }
    const headers: Record<string, string> = {}
    const username = optionText(options, 'username')
    if (username) {
      const password = typeof options.password === 'string' ? options.password : ''
      headers.Authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
    }
    return send({ url: url.href, headers, body: { event: 'alert_state_change', alert, url_base: urlBase, metadata: n.metadata ?? {} } }, url)
  },
}
