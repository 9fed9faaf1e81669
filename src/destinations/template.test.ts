import { describe, expect, it } from 'vitest'
import type { AlertNotification } from './notification.ts'
import { renderAlertTemplate, renderCustomTexts, renderTemplate, TEMPLATE_BUDGET, TemplateError, TemplateTooComplex } from './template.ts'

const n: AlertNotification = {
  alert: { id: 1, name: 'A <b>', state: 'triggered', url: 'http://s.test/alerts/1', options: { column: 'v', op: '>', value: 1 } },
  query: { id: 2, name: 'Q', url: 'http://s.test/queries/2' },
  value: 5,
  result: { columns: [{ name: 'v', friendly_name: 'V', type: 'integer' }, { name: 'd', friendly_name: 'D', type: 'datetime' }], rows: [{ v: 5, d: '2026-01-01' }, { v: 3, d: null }] },
  metadata: {},
  dedupKey: '1_2',
}

describe('alert templates', () => {
  it('offers the established tool\'s variables; lists print as JSON and still iterate', () => {
    expect(renderTemplate('{{ALERT_STATUS}} {{ALERT_SELECTOR}} {{ALERT_CONDITION}} {{ALERT_THRESHOLD}} {{QUERY_RESULT_VALUE}} {{QUERY_NAME}}', n, 'text'))
      .toBe('TRIGGERED first > 1 5 Q')
    expect(renderTemplate('{{{QUERY_RESULT_ROWS}}}', n, 'text')).toBe('[{"v":5,"d":"2026-01-01"},{"v":3,"d":null}]')
    expect(renderTemplate('{{QUERY_RESULT_COLS}}', n, 'text')).toBe('[{"name":"v","friendly_name":"V","type":"integer"},{"name":"d","friendly_name":"D","type":"datetime"}]')
    expect(renderTemplate('{{#QUERY_RESULT_TABLE}}[{{#.}}{{.}};{{/.}}]{{/QUERY_RESULT_TABLE}}', n, 'text')).toBe('[5;2026-01-01;][3;;]')
    expect(renderTemplate('{{#QUERY_RESULT_ROWS}}{{.}} {{/QUERY_RESULT_ROWS}}', n, 'text')).toBe('{"v":5,"d":"2026-01-01"} {"v":3,"d":null} ')
    expect(renderTemplate('{{ALERT_SELECTOR}}', { ...n, alert: { ...n.alert, options: { ...n.alert.options, selector: 'max' } } }, 'text')).toBe('max')
  })

  it('escapes values per channel, never the template\'s own text', () => {
    expect(renderTemplate('<i>{{ALERT_NAME}}</i>', n, 'html')).toBe('<i>A &lt;b&gt;</i>')
    expect(renderTemplate('<i>{{ALERT_NAME}}</i>', n, 'slack')).toBe('<i>A &lt;b&gt;</i>')
    expect(renderTemplate('{{ALERT_NAME}}', { ...n, alert: { ...n.alert, name: 'say "hi"\n' } }, 'json')).toBe('say \\"hi\\"\\n')
    expect(renderTemplate('{{constructor}}{{__proto__}}', n, 'text')).toBe('')
  })

  it('escapes values in {{{ }}} and {{& }} as in {{ }}', () => {
    expect(renderTemplate('{{{ALERT_NAME}}}|{{& ALERT_NAME}}', n, 'html')).toBe('A &lt;b&gt;|A &lt;b&gt;')
    expect(renderTemplate('{{{ALERT_NAME}}}', n, 'slack')).toBe('A &lt;b&gt;')
    expect(renderTemplate('"{{{ALERT_NAME}}}"', { ...n, alert: { ...n.alert, name: '", "x": "' } }, 'json')).toBe('"\\", \\"x\\": \\""')
  })

  it('refuses a template that writes more than the budget, rather than cutting it', () => {
    expect(() => renderTemplate('{{#QUERY_RESULT_ROWS}}' + 'x'.repeat(TEMPLATE_BUDGET.bytes) + '{{/QUERY_RESULT_ROWS}}', n, 'text')).toThrow(TemplateTooComplex)
  })

  it('fails with a TemplateError; custom texts fall back to null with the reason', () => {
    expect(() => renderTemplate('{{#ALERT_NAME}}', n, 'text')).toThrow(TemplateError)
    const custom = renderCustomTexts({ ...n, alert: { ...n.alert, options: { custom_subject: '{{/x}}', template: 'legacy {{ALERT_STATUS}}' } } }, 'text')
    expect(custom.subject).toBeNull()
    expect(custom.body).toBe('legacy TRIGGERED')
    expect(custom.error).toMatch(/^Custom subject: /)
  })

  it('renders the default mail subject and body without a selector, or the custom ones', () => {
    const plain = renderAlertTemplate(n)
    expect(plain.subject).toBe('Alert: A <b> changed status to TRIGGERED')
    expect(plain.body).toContain('A &lt;b&gt;')
    expect(plain.body).toContain('<th>V</th><th>D</th>')
    expect(plain.custom).toEqual({ subject: false, body: false })
    const text = renderAlertTemplate({ ...n, alert: { ...n.alert, options: { custom_subject: 'S {{ALERT_NAME}}' } } }, 'text')
    expect(text).toMatchObject({ subject: 'S A <b>', custom: { subject: true, body: false } })
    expect(text.body).toContain('STATUS: TRIGGERED')
  })
})
