import http from 'node:http'
import { http as mock, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Config } from '../../src/config.ts'
import { DeliveryFailed, sendWith, destinationTypes } from '../../src/destinations/index.ts'
import type { AlertNotification } from '../../src/destinations/index.ts'
import { startSmtp } from '../helpers/smtp.ts'

/** The chat and paging services, faked at the HTTP boundary: what each one received, exactly as it received it. */
interface Received {
  url: string
  headers: Headers
  text: string
}
let received: Received[] = []
const capture = (status = 200, body = 'ok') => async ({ request }: { request: Request }) => {
  received.push({ url: request.url, headers: request.headers, text: await request.text() })
  return new HttpResponse(body, { status })
}
const server = setupServer(
  mock.post('https://hooks.slack.test/services/T1', capture(200, 'ok')),
  mock.post('https://discord.test/api/webhooks/1/abc', capture(204, '')),
  mock.post('https://mattermost.test/hooks/xyz', capture(200, 'ok')),
  mock.post('https://api.chatwork.com/v2/rooms/:room/messages', capture(200, '{"message_id":"1"}')),
  mock.post('https://events.pagerduty.com/v2/enqueue', capture(202, '{"status":"success","message":"Event processed"}')),
  mock.post('https://chat.googleapis.test/v1/spaces/AAA/messages', capture(200, '{}')),
  mock.post('https://teams.test/workflows/1', capture(202, '')),
  mock.post('https://down.test/hook', capture(503, 'Service Unavailable')),
  mock.post('https://refuses.test/hook', capture(404, 'no_service')),
)
// the loopback webhook server below is real: requests msw has no handler for go through
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => { received = [] })
afterAll(() => server.close())

const config = { baseUrl: 'https://sightline.test', port: 5000, mail: undefined } as unknown as Config
const kind = (type: string) => destinationTypes.require(type)
const json = (r: Received) => JSON.parse(r.text)

/** A notification as the alerts domain builds it; `tricky` values have quotes, new lines and a closing script tag. */
function notification(o: { state?: 'ok' | 'triggered' | 'unknown'; options?: Record<string, unknown>; name?: string } = {}): AlertNotification {
  return {
    alert: {
      id: 7, name: o.name ?? 'Orders low', state: o.state ?? 'triggered', url: 'https://sightline.test/alerts/7',
      options: { column: 'orders', op: '<', value: 100, ...o.options },
      rearm: 3600, user_id: 2, last_triggered_at: '2026-11-27T12:00:00.000Z', created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-02T00:00:00.000Z',
    },
    query: { id: 3, name: 'Orders "today"\n</script>', url: 'https://sightline.test/queries/3' },
    value: 42,
    result: {
      columns: [{ name: 'orders', friendly_name: 'Orders', type: 'integer' }, { name: 'note', friendly_name: 'Note', type: 'string' }],
      rows: [{ orders: 42, note: 'a "quoted"\nline </script> & <b>' }, { orders: 50, note: 'x' }],
    },
    metadata: { Username: 'Ada', query_id: 3, Scheduled: true },
    dedupKey: '7_3',
  }
}
const custom = { custom_subject: '{{ALERT_NAME}} is {{ALERT_STATUS}}', custom_body: 'Value {{QUERY_RESULT_VALUE}}: {{QUERY_NAME}} / {{#QUERY_RESULT_ROWS}}{{note}}{{/QUERY_RESULT_ROWS}}' }
const trickyBody = 'Value 42: Orders "today"\n</script> / a "quoted"\nline </script> & <b>x'

describe('chat and paging payloads, as each service receives them', () => {
  it('Slack: one attachment, red when triggered, green otherwise; custom texts with Slack escaping', async () => {
    const options = { url: 'https://hooks.slack.test/services/T1' }
    expect(await sendWith(kind('slack'), options, notification(), config)).toEqual({ status: 200, detail: 'ok' })
    expect(received[0].headers.get('content-type')).toBe('application/json')
    expect(json(received[0])).toEqual({ attachments: [{ text: 'Orders low just triggered', color: '#c0392b', fields: [
      { title: 'Query', type: 'mrkdwn', value: 'https://sightline.test/queries/3' },
      { title: 'Alert', type: 'mrkdwn', value: 'https://sightline.test/alerts/7' },
    ] }] })
    await sendWith(kind('slack'), options, notification({ options: custom }), config)
    expect(json(received[1]).attachments[0]).toMatchObject({ text: 'Orders low is TRIGGERED', color: '#c0392b' })
    expect(json(received[1]).attachments[0].fields[2]).toEqual({ title: 'Description', value: trickyBody.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') })
    // the custom subject is for triggers only
    await sendWith(kind('slack'), options, notification({ state: 'ok', options: custom }), config)
    expect(json(received[2]).attachments[0]).toMatchObject({ text: 'Orders low went back to normal', color: '#27ae60' })
  })

  it('Discord: content and an embed, colours as numbers, the custom subject rendered (not raw)', async () => {
    const options = { url: 'https://discord.test/api/webhooks/1/abc' }
    expect(await sendWith(kind('discord'), options, notification({ options: custom }), config)).toEqual({ status: 204, detail: '' })
    expect(json(received[0])).toEqual({ content: 'Orders low is TRIGGERED', embeds: [{ color: 12597547, fields: [
      { name: 'Query', value: 'https://sightline.test/queries/3', inline: true },
      { name: 'Alert', value: 'https://sightline.test/alerts/7', inline: true },
      { name: 'Description', value: trickyBody },
    ] }] })
    await sendWith(kind('discord'), options, notification({ state: 'ok' }), config)
    await sendWith(kind('discord'), options, notification({ state: 'unknown' }), config)
    expect(json(received[1])).toMatchObject({ content: 'Orders low went back to normal', embeds: [{ color: 2600544 }] })
    expect(json(received[2])).toMatchObject({ content: 'Orders low is in an unknown state', embeds: [{ color: 16776960 }] })
  })

  it('Mattermost: the heading line or the custom subject, the body as Description, the overrides passed on', async () => {
    const options = { url: 'https://mattermost.test/hooks/xyz', username: 'bot', icon_url: 'https://i.test/a.png', channel: 'town' }
    await sendWith(kind('mattermost'), options, notification(), config)
    expect(json(received[0])).toEqual({ text: '#### Orders low just triggered', username: 'bot', icon_url: 'https://i.test/a.png', channel: 'town' })
    await sendWith(kind('mattermost'), { url: options.url }, notification({ state: 'ok', options: custom }), config)
    expect(json(received[1])).toEqual({ text: 'Orders low is OK', attachments: [{ fields: [{ title: 'Description', value: trickyBody }] }] })
  })

  it('ChatWork: a form post to the room with the token header; the message template or the custom texts', async () => {
    const options = { api_token: 'tok', room_id: '42', message_template: '{alert_name} changed state to {new_state}.\\n{alert_url}\\n{query_url}' }
    await sendWith(kind('chatwork'), options, notification(), config)
    expect(received[0].url).toBe('https://api.chatwork.com/v2/rooms/42/messages')
    expect(received[0].headers.get('x-chatworktoken')).toBe('tok')
    expect(received[0].headers.get('content-type')).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(received[0].text))).toEqual({
      body: 'Orders low changed state to TRIGGERED.\nhttps://sightline.test/alerts/7\nhttps://sightline.test/queries/3',
    })
    await sendWith(kind('chatwork'), options, notification({ options: custom }), config)
    expect(new URLSearchParams(received[1].text).get('body')).toBe(`Orders low is TRIGGERED\n${trickyBody}`)
  })

  it('PagerDuty: trigger and resolve under the same dedup key, nothing for unknown', async () => {
    const options = { integration_key: 'R0UT1NG', description: 'Shop orders' }
    const answer = await sendWith(kind('pagerduty'), options, notification(), config)
    expect(answer).toEqual({ status: 202, detail: '{"status":"success","message":"Event processed"}' })
    expect(json(received[0])).toEqual({
      routing_key: 'R0UT1NG', event_action: 'trigger', dedup_key: '7_3',
      payload: { summary: 'Shop orders', severity: 'error', source: 'sightline' },
      client: 'Sightline', client_url: 'https://sightline.test/alerts/7',
    })
    await sendWith(kind('pagerduty'), { integration_key: 'R0UT1NG' }, notification({ state: 'ok', options: custom }), config)
    expect(json(received[1])).toEqual({
      routing_key: 'R0UT1NG', event_action: 'resolve', dedup_key: '7_3',
      payload: { summary: 'Orders low is OK', severity: 'error', source: 'sightline', custom_details: trickyBody },
      client: 'Sightline', client_url: 'https://sightline.test/alerts/7',
    })
    const unknown = await sendWith(kind('pagerduty'), options, notification({ state: 'unknown' }), config)
    expect(unknown.status).toBeNull()
    expect(received).toHaveLength(2)
  })

  it('Google Chat: a card with status, OPEN QUERY and the custom body (values HTML-escaped)', async () => {
    const options = { url: 'https://chat.googleapis.test/v1/spaces/AAA/messages', icon_url: 'https://i.test/a.png' }
    await sendWith(kind('hangouts_chat'), options, notification({ options: custom }), config)
    expect(received[0].headers.get('content-type')).toBe('application/json; charset=UTF-8')
    expect(json(received[0])).toEqual({ cards: [{
      header: { title: 'Orders low is TRIGGERED', imageUrl: 'https://i.test/a.png' },
      sections: [
        { widgets: [
          { textParagraph: { text: '<b><font color="#c0392b">Triggered</font></b>' } },
          { buttons: [{ textButton: { text: 'OPEN QUERY', onClick: { openLink: { url: 'https://sightline.test/queries/3' } } } }] },
        ] },
        { widgets: [{ textParagraph: { text: 'Value 42: Orders &quot;today&quot;\n&lt;/script&gt; / a &quot;quoted&quot;\nline &lt;/script&gt; &amp; &lt;b&gt;x' } }] },
      ],
    }] })
    await sendWith(kind('hangouts_chat'), { url: options.url }, notification({ state: 'unknown' }), config)
    expect(json(received[1]).cards[0].header).toEqual({ title: 'Orders low' })
    expect(json(received[1]).cards[0].sections[0].widgets[0].textParagraph.text).toBe('Unable to determine status. Check Query and Alert configuration.')
  })

  it('Microsoft Teams: an Adaptive Card workflow message honouring custom texts, always valid JSON', async () => {
    const options = { url: 'https://teams.test/workflows/1' }
    await sendWith(kind('microsoft_teams_webhook'), options, notification({ options: custom }), config)
    expect(json(received[0])).toEqual({ type: 'message', attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null,
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4',
        body: [
          { type: 'TextBlock', text: 'Orders low is TRIGGERED', weight: 'Bolder', size: 'Medium', wrap: true, color: 'Attention' },
          { type: 'FactSet', facts: [{ title: 'Alert', value: 'Orders low' }, { title: 'State', value: 'TRIGGERED' }, { title: 'Query', value: 'Orders "today"\n</script>' }] },
          { type: 'TextBlock', text: trickyBody, wrap: true },
        ],
        actions: [
          { type: 'Action.OpenUrl', title: 'Open Alert', url: 'https://sightline.test/alerts/7' },
          { type: 'Action.OpenUrl', title: 'Open Query', url: 'https://sightline.test/queries/3' },
        ],
      },
    }] })
    expect(json(received[0]).attachments[0].content.body[0].color).toBe('Attention')
    await sendWith(kind('microsoft_teams_webhook'), options, notification({ state: 'ok' }), config)
    expect(json(received[1]).attachments[0].content.body[0]).toMatchObject({ text: 'Orders low went back to normal', color: 'Good' })
  })

  it('Microsoft Teams: a message template gets JSON-escaped values; one that is not a card falls back and says why', async () => {
    const card = '{"type":"AdaptiveCard","version":"1.4","body":[{"type":"TextBlock","text":"{{QUERY_NAME}} / {alert_name} / {{#QUERY_RESULT_ROWS}}{{note}}{{/QUERY_RESULT_ROWS}}"}]}'
    const options = { url: 'https://teams.test/workflows/1', message_template: card }
    const answer = await sendWith(kind('microsoft_teams_webhook'), options, notification({ name: 'Say "hi"\n' }), config)
    expect(answer.templateError).toBeUndefined()
    expect(json(received[0])).toEqual({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: {
      type: 'AdaptiveCard', version: '1.4',
      body: [{ type: 'TextBlock', text: 'Orders "today"\n</script> / Say "hi"\n / a "quoted"\nline </script> & <b>x' }],
    } }] })
    // the established tool's MessageCard default: retired by Teams, so the default card goes, and the reason is told
    const legacy = '{"@type": "MessageCard", "summary": "{alert_name}"}'
    const fallback = await sendWith(kind('microsoft_teams_webhook'), { ...options, message_template: legacy }, notification(), config)
    expect(fallback.templateError).toMatch(/Adaptive Card/)
    expect(json(received[1]).attachments[0].content.type).toBe('AdaptiveCard')
    const broken = await sendWith(kind('microsoft_teams_webhook'), { ...options, message_template: '{"type": {{ALERT_NAME}}' }, notification(), config)
    expect(broken.templateError).toMatch(/not valid JSON/)
  })
})

describe('failures', () => {
  it('a 5xx or a timeout may pass later; a 4xx will not; neither is retried here', async () => {
    const n = notification()
    const failure = async (url: string) => sendWith(kind('slack'), { url }, n, config).then(() => null, (e: unknown) => e)
    const down = await failure('https://down.test/hook')
    expect(down).toBeInstanceOf(DeliveryFailed)
    expect(down).toMatchObject({ status: 503, retryable: true, message: 'down.test answered HTTP 503: Service Unavailable' })
    expect(await failure('https://refuses.test/hook')).toMatchObject({ status: 404, retryable: false })
    expect(received).toHaveLength(2)
    expect(await failure('ftp://example.test/x')).toMatchObject({ status: null, retryable: false })
    expect(await failure('not a url')).toMatchObject({ status: null, retryable: false })
    // nothing listens on port 9 of the loopback: refused at once, worth another try later
    expect(await failure('http://127.0.0.1:9/hook')).toMatchObject({ status: null, retryable: true })
  })

  it('a service that never answers fails after the 10 s timeout, worth another try', async () => {
    const silent = http.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hook`
      const started = Date.now()
      const error = await sendWith(kind('webhook'), { url }, notification(), config).catch((e: unknown) => e)
      expect(error).toMatchObject({ status: null, retryable: true, message: expect.stringContaining('no answer within 10 s') })
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000)
    } finally {
      silent.closeAllConnections()
      await new Promise<void>((resolve) => silent.close(() => resolve()))
    }
  })

  it('HipChat is listed as deprecated and fails with a clear message', async () => {
    expect(kind('hipchat').deprecated).toBe(true)
    const error = await sendWith(kind('hipchat'), { url: 'https://hipchat.test/x' }, notification(), config).catch((e: unknown) => e)
    expect(error).toMatchObject({ retryable: false, status: null, message: expect.stringMatching(/HipChat was shut down/) })
  })

  it('a template that fails to render sends the default text and says why', async () => {
    const answer = await sendWith(kind('slack'), { url: 'https://hooks.slack.test/services/T1' },
      notification({ options: { custom_subject: '{{#ALERT_NAME}} unclosed', custom_body: 'fine {{ALERT_STATUS}}' } }), config)
    expect(answer.templateError).toMatch(/^Custom subject: Unclosed section/)
    expect(json(received[0]).attachments[0].text).toBe('Orders low just triggered')
    expect(json(received[0]).attachments[0].fields[2]).toEqual({ title: 'Description', value: 'fine TRIGGERED' })
  })
})

describe('the webhook, against a real HTTP server on 127.0.0.1', () => {
  let hook: http.Server
  let port = 0
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = []
  let answerStatus = 200
  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(answerStatus, { 'Content-Type': 'text/plain' }).end(answerStatus === 200 ? 'thanks' : 'nope')
      })
    })
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
    port = (hook.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())))

  it('posts the established tool\'s payload, with Basic authentication when a username is set', async () => {
    const options = { url: `http://127.0.0.1:${port}/alerts`, username: 'ada', password: 'p@ss' }
    const answer = await sendWith(kind('webhook'), options, notification({ options: custom }), config)
    expect(answer).toEqual({ status: 200, detail: 'thanks' })
    expect(got[0].headers['content-type']).toBe('application/json')
    expect(got[0].headers.authorization).toBe(`Basic ${Buffer.from('ada:p@ss').toString('base64')}`)
    expect(JSON.parse(got[0].body)).toEqual({
      event: 'alert_state_change',
      alert: {
        id: 7, name: 'Orders low', options: { column: 'orders', op: '<', value: 100, ...custom }, state: 'triggered',
        last_triggered_at: '2026-11-27T12:00:00.000Z', updated_at: '2026-11-02T00:00:00.000Z', created_at: '2026-11-01T00:00:00.000Z',
        rearm: 3600, query_id: 3, user_id: 2, description: trickyBody, title: 'Orders low is TRIGGERED',
      },
      url_base: 'https://sightline.test',
      metadata: { Username: 'Ada', query_id: 3, Scheduled: true },
    })
    await sendWith(kind('webhook'), { url: options.url }, notification(), config)
    expect(got[1].headers.authorization).toBeUndefined()
    expect(JSON.parse(got[1].body).alert).toMatchObject({ description: '', title: '' })
    answerStatus = 500
    await expect(sendWith(kind('webhook'), { url: options.url }, notification(), config)).rejects.toMatchObject({ status: 500, retryable: true })
    answerStatus = 200
  })
})

describe('e-mail, through the real in-process SMTP server', () => {
  it('sends the default body (no selector needed) and the subject template, values HTML-escaped', async () => {
    const smtp = await startSmtp()
    try {
      const mailConfig = { ...config, mail: smtp.mail } as Config
      const n = notification({ name: 'Orders <low> & "odd"' })
      const answer = await sendWith(kind('email'), { addresses: 'a@example.com, b@example.com' }, n, mailConfig)
      expect(answer).toEqual({ status: null, detail: 'Sent to a@example.com, b@example.com.' })
      const [mail] = smtp.received
      expect(mail.to).toEqual(['a@example.com', 'b@example.com'])
      expect(mail.subject).toBe('Alert: Orders <low> & "odd" changed status to TRIGGERED')
      expect(mail.html).toContain('Orders &lt;low&gt; &amp; &quot;odd&quot;')
      expect(mail.html).toContain('STATUS: TRIGGERED')
      expect(mail.html).toContain('CONDITION: 42 &lt; 100')
      expect(mail.html).toContain('<th>Orders</th><th>Note</th>')
      expect(mail.html).toMatch(/<td>a &quot;quoted&quot;\r?\nline &lt;\/script&gt; &amp; &lt;b&gt;<\/td>/)
      expect(mail.html).not.toContain('</script>')
      expect(mail.text).toContain('STATUS: TRIGGERED')

      await sendWith(kind('email'), { addresses: 'a@example.com', subject_template: '[{state}] {alert_name}' }, notification({ state: 'ok' }), mailConfig)
      expect(smtp.received[1].subject).toBe('[OK] Orders low')
      await sendWith(kind('email'), { addresses: 'a@example.com' }, notification({ options: { ...custom, custom_body: '<p>{{QUERY_NAME}}</p>' } }), mailConfig)
      expect(smtp.received[2].subject).toBe('Orders low is TRIGGERED')
      expect(smtp.received[2].html).toMatch(/<p>Orders &quot;today&quot;\r?\n&lt;\/script&gt;<\/p>/)
    } finally {
      await smtp.close()
    }
  })

  it('fails without retry when mail is not configured or the addresses are wrong', async () => {
    await expect(sendWith(kind('email'), { addresses: 'a@example.com' }, notification(), config)).rejects.toMatchObject({ retryable: false, message: 'The mail server is not configured.' })
    const smtp = await startSmtp()
    try {
      const mailConfig = { ...config, mail: smtp.mail } as Config
      await expect(sendWith(kind('email'), { addresses: 'not-an-address' }, notification(), mailConfig)).rejects.toMatchObject({ retryable: false })
      await expect(sendWith(kind('email'), { addresses: ' , ' }, notification(), mailConfig)).rejects.toMatchObject({ retryable: false })
    } finally {
      await smtp.close()
    }
  })
})
