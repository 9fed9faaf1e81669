import { describe, expect, it } from 'vitest'
import { initialReport, maySave, reduceReport, reportBody, saveReport, sendReport, type Api, type ReportEvent, type ReportState } from '../../islands/lib/report/model.ts'
import { reportUiTexts as t } from '../../src/shared/report-texts.ts'
import { fakeApi } from './fake-api.ts'

/** The Subscribe dialog's model; the dialog itself is tested in a browser (test/browser/subscribe.test.ts). */
const board = { dashboard_id: 3 }
const query = { query_id: 8, visualizations: [{ id: 21, name: 'Table' }, { id: 22, name: 'Bars' }] }
const steps = (state: ReportState, ...events: ReportEvent[]) => events.reduce((s, e) => reduceReport(s, e).state, state)
const reason = (error: unknown) => (error as Error).message

describe('report subscription model', () => {
  it('starts weekly on Mondays at 08:00 to oneself with pictures, on the caller\'s clock when they set one', () => {
    const fresh = initialReport(board, 4, 'UTC', 'Europe/Paris')
    expect(fresh).toMatchObject({ open: false, frequency: 'weekly', time: '08:00', days: ['Monday'], recipients: ['user:4'], attachments: ['png'], timeZone: 'Europe/Paris', visualization: 0 })
    expect(initialReport(query, 4, 'UTC', null)).toMatchObject({ timeZone: 'UTC', visualization: 21 })
    expect(initialReport({ query_id: 8, visualizations: [] }, 4, 'UTC', null).visualization).toBe(0)
  })

  it('opens with the page\'s values and filters, and stays open while a request is under way', () => {
    const opened = steps(initialReport(board, 4, 'UTC', null), { type: 'open', values: { x: '2' }, filters: { region: ['North'] } })
    expect(opened).toMatchObject({ open: true, values: { x: '2' }, filters: { region: ['North'] } })
    const busy = reduceReport(opened, { type: 'save', parameters: {} }).state
    expect(reduceReport(busy, { type: 'close' }).state.open).toBe(true)
    expect(reduceReport(opened, { type: 'close' }).state.open).toBe(false)
  })

  it('saves only with a recipient, and one request at a time', () => {
    const state = steps(initialReport(board, 4, 'UTC', null), { type: 'toggle', list: 'recipients', value: 'user:4' })
    expect(maySave(state)).toBe(false)
    expect(reduceReport(state, { type: 'save', parameters: {} }).commands).toEqual([])
    const ready = steps(state, { type: 'toggle', list: 'recipients', value: 'group:2' })
    const step = reduceReport(ready, { type: 'save', parameters: {} })
    expect(step.commands).toHaveLength(1)
    expect(reduceReport(step.state, { type: 'save', parameters: {} }).commands).toEqual([])
    expect(reduceReport(step.state, { type: 'sendNow', to: 'me' }).commands).toEqual([]) // nothing saved yet
  })

  it('sends the weekly schedule, the target, the values, the recipients and attachments', () => {
    const state = steps(initialReport(board, 4, 'UTC', null),
      { type: 'open', values: {}, filters: { region: ['North'] } },
      { type: 'toggle', list: 'days', value: 'Friday' },
      { type: 'toggle', list: 'recipients', value: 'destination:7' },
      { type: 'toggle', list: 'attachments', value: 'pdf' },
      { type: 'edit', change: { until: '2027-01-31', skipIfEmpty: true } })
    const step = reduceReport(state, { type: 'save', parameters: { x: '2' } })
    expect(step.state).toMatchObject({ busy: true, failure: null, message: null })
    expect(step.commands).toEqual([{ kind: 'save', path: '/api/subscriptions', body: {
      dashboard_id: 3, parameters: { x: '2' }, filters: { region: ['North'] }, attachments: ['png', 'pdf'], skip_if_empty: true,
      schedule: { interval: 604800, time: '08:00', days_of_week: ['Monday', 'Friday'], until: '2027-01-31', time_zone: 'UTC' },
      recipients: [{ user_id: 4 }, { destination_id: 7 }],
    } }])
  })

  it('sends every N hours or daily without days, and a query report with its visualization', () => {
    const hourly = steps(initialReport(query, 4, 'UTC', null), { type: 'edit', change: { frequency: 'hours', hours: 3, visualization: 22 } })
    expect(reportBody(hourly, {})).toMatchObject({ query_id: 8, visualization_id: 22, schedule: { interval: 10800, until: null, time_zone: 'UTC' } })
    expect(reportBody(hourly, {}).schedule).not.toHaveProperty('time')
    const daily = steps(hourly, { type: 'edit', change: { frequency: 'daily', time: '17:30' } }, { type: 'toggle', list: 'recipients', value: 'group:2' })
    expect(reportBody(daily, {})).toMatchObject({ schedule: { interval: 86400, time: '17:30', days_of_week: [] }, recipients: [{ user_id: 4 }, { group_id: 2 }] })
  })

  it('says when the next report goes out, updates the saved report afterwards, and sends it now', async () => {
    const made = fakeApi<Api>({ id: 12, next_send_at: '2027-01-04T08:00:00Z' })
    const saving = reduceReport(initialReport(board, 4, 'UTC', null), { type: 'save', parameters: {} })
    const command = saving.commands[0]
    if (command.kind !== 'save') throw new Error('expected a save')
    const saved = reduceReport(saving.state, await saveReport(made.call, command.path, command.body, reason)).state
    expect(made.calls).toEqual([['POST', '/api/subscriptions', command.body]])
    expect(saved).toMatchObject({ busy: false, saved: { id: 12 }, message: `${t.saved} ${new Date('2027-01-04T08:00:00Z').toLocaleString()}.` })
    expect(reduceReport(saved, { type: 'save', parameters: {} }).commands[0]).toMatchObject({ path: '/api/subscriptions/12' })
    expect(reduceReport(saving.state, { type: 'saved', report: { id: 12, next_send_at: null } }).state.message).toBe(`${t.saved} —.`)

    const send = reduceReport(saved, { type: 'sendNow', to: 'me' })
    expect(send.state).toMatchObject({ busy: true, failure: null })
    expect(send.commands).toEqual([{ kind: 'send', path: '/api/subscriptions/12/send', to: 'me' }])
    const sent = fakeApi<Api>(null)
    expect(reduceReport(send.state, await sendReport(sent.call, '/api/subscriptions/12/send', 'me', reason)).state).toMatchObject({ busy: false, message: t.sent })
    expect(sent.calls).toEqual([['POST', '/api/subscriptions/12/send', { to: 'me' }]])
  })

  it('shows the server\'s reason for a refused save or send, else its own words', async () => {
    const saving = reduceReport(initialReport(board, 4, 'UTC', null), { type: 'save', parameters: {} }).state
    const refused = fakeApi<Api>(new Error('Until must be after today'))
    expect(reduceReport(saving, await saveReport(refused.call, '/api/subscriptions', {}, reason)).state).toMatchObject({ busy: false, failure: 'Until must be after today' })
    expect(reduceReport(saving, await sendReport(fakeApi<Api>(new Error('')).call, '/x', 'all', reason)).state).toMatchObject({ busy: false, failure: t.failed })
  })
})
