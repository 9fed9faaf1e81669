import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChatReport, type ChatReport } from './chat.ts'

/** Each chat service gets the report as its own markup: a title linking the dashboard, a line per widget with its picture. */
let server: http.Server
let url = ''
const bodies: any[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const report: ChatReport = {
  name: 'Sales', link: 'https://bi.example.com/dashboards/1-sales', late: false, unsubscribeUrl: 'https://bi.example.com/unsubscribe/x',
  widgets: [
    { title: 'Orders', imageUrl: 'https://bi.example.com/reports/images/abc', note: null },
    { title: '', imageUrl: null, note: 'This widget requires access to a data source you don\'t have access to.' },
  ],
}

describe('sendChatReport', () => {
  it('writes Slack and Google Chat links as <url|label>, Mattermost as markdown, Teams as an Adaptive Card', async () => {
    await sendChatReport('slack', { url }, report)
    expect(bodies.at(-1).text).toBe('<https://bi.example.com/dashboards/1-sales|Report: Sales>\n• <https://bi.example.com/reports/images/abc|Orders>\n•  (This widget requires access to a data source you don\'t have access to.)')
    await sendChatReport('hangouts_chat', { url }, report)
    expect(bodies.at(-1).text).toContain('<https://bi.example.com/reports/images/abc|Orders>')
    await sendChatReport('mattermost', { url, channel: 'town-square' }, report)
    expect(bodies.at(-1)).toMatchObject({ channel: 'town-square', text: expect.stringContaining('[Orders](https://bi.example.com/reports/images/abc)') })
    await sendChatReport('microsoft_teams_webhook', { url }, { ...report, late: true })
    const card = bodies.at(-1).attachments[0].content
    expect(card.body[0].text).toBe('[Late] Report: Sales')
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open', url: 'https://bi.example.com/dashboards/1-sales' }])
  })

  it('refuses a kind reports do not go to, without sending', async () => {
    const count = bodies.length
    await expect(sendChatReport('pagerduty', { url }, report)).rejects.toThrow('Reports cannot be sent to pagerduty destinations.')
    expect(bodies).toHaveLength(count)
  })
})
