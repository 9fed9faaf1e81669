import { describe, expect, it } from 'vitest'
import { parseOptions, decide, evaluate, nextState, normalizeOp, OPS, selectValue, type AlertOp, type AlertState, type Selector } from '../../src/alerts/index.ts'

/** Alert evaluation (reference §1.5, redash-server.md §6.2–§6.3) as pure functions: every op × selector × state × rearm. */

const rows = [{ n: 5, s: 'b', flag: true }, { n: 2, s: 'a', flag: false }, { n: 9, s: 'c', flag: true }]

describe('operators', () => {
  it.each([
    ['>', '>'], ['>=', '>='], ['<', '<'], ['<=', '<='], ['==', '=='], ['!=', '!='],
    ['greater than', '>'], ['less than', '<'], ['equals', '=='], ['=', '=='], ['Greater Than', '>'],
  ])('%s reads as %s', (op, symbol) => expect(normalizeOp(op)).toBe(symbol))

  it.each(['~', 'between', '', null, 3])('%s is unknown', (op) => expect(normalizeOp(op)).toBeUndefined())

  // value vs threshold 5 for each op: [value 4, value 5, value 6]
  const table: Record<AlertOp, [AlertState, AlertState, AlertState]> = {
    '>': ['ok', 'ok', 'triggered'],
    '>=': ['ok', 'triggered', 'triggered'],
    '<': ['triggered', 'ok', 'ok'],
    '<=': ['triggered', 'triggered', 'ok'],
    '==': ['ok', 'triggered', 'ok'],
    '!=': ['triggered', 'ok', 'triggered'],
  }
  it.each(OPS)('%s compares numbers (and numeric text) with a numeric threshold', (op) => {
    expect([4, 5, 6].map((v) => nextState(op, v, 5))).toEqual(table[op])
    expect(['4', ' 5 ', '6.0'].map((v) => nextState(op, v, '5'))).toEqual(table[op])
  })

  it.each(OPS)('%s: a number against a non-numeric threshold is unknown', (op) => {
    expect(nextState(op, 5, 'five')).toBe('unknown')
  })

  it('text compares as text; only == and != can call it ok', () => {
    expect(nextState('==', 'abc', 'abc')).toBe('triggered')
    expect(nextState('==', 'abc', 'abd')).toBe('ok')
    expect(nextState('!=', 'abc', 'abd')).toBe('triggered')
    expect(nextState('!=', 'abc', 'abc')).toBe('ok')
    expect(nextState('>', 'b', 'a')).toBe('triggered')
    expect(nextState('>', 'a', 'b')).toBe('unknown')
    expect(nextState('<=', 'b', 'a')).toBe('unknown')
  })

  it('booleans compare as true/false text', () => {
    expect(nextState('==', true, 'true')).toBe('triggered')
    expect(nextState('==', true, 'TRUE')).toBe('triggered')
    expect(nextState('==', false, 'true')).toBe('ok')
    expect(nextState('!=', false, true)).toBe('triggered')
  })

  it('no value, or no operator, is unknown', () => {
    expect(nextState('>', null, 1)).toBe('unknown')
    expect(nextState('>', undefined, 1)).toBe('unknown')
    expect(nextState(undefined, 5, 1)).toBe('unknown')
  })
})

describe('selectors', () => {
  const cases: [Selector, unknown][] = [['first', 5], ['min', 2], ['max', 9]]
  it.each(cases)('%s of n is %s', (selector, value) => expect(selectValue(rows, 'n', selector)).toBe(value))

  it('first takes the cell as it is; min and max need numbers', () => {
    expect(selectValue(rows, 's', 'first')).toBe('b')
    expect(selectValue(rows, 's', 'min')).toBeUndefined()
    expect(selectValue(rows, 'flag', 'max')).toBeUndefined()
    expect(selectValue([{ n: '3' }, { n: '10' }], 'n', 'max')).toBe(10)
  })

  it('min and max skip empty cells; all empty is unknown', () => {
    expect(selectValue([{ n: null }, { n: 4 }, { n: 1 }], 'n', 'min')).toBe(1)
    expect(selectValue([{ n: null }, { n: null }], 'n', 'max')).toBeUndefined()
  })

  it('no rows, or a column missing from the first row, is unknown', () => {
    for (const selector of ['first', 'min', 'max'] as const) {
      expect(selectValue([], 'n', selector)).toBeUndefined()
      expect(selectValue(rows, 'missing', selector)).toBeUndefined()
    }
  })

  // every op × selector over the same rows, threshold 5
  const expected: Record<Selector, Record<AlertOp, AlertState>> = {
    first: { '>': 'ok', '>=': 'triggered', '<': 'ok', '<=': 'triggered', '==': 'triggered', '!=': 'ok' },
    min: { '>': 'ok', '>=': 'ok', '<': 'triggered', '<=': 'triggered', '==': 'ok', '!=': 'triggered' },
    max: { '>': 'triggered', '>=': 'triggered', '<': 'ok', '<=': 'ok', '==': 'ok', '!=': 'triggered' },
  }
  for (const selector of ['first', 'min', 'max'] as const) {
    it.each(OPS)(`${selector} with %s`, (op) => {
      expect(evaluate({ column: 'n', op, value: 5, selector }, rows)).toEqual({ value: { first: 5, min: 2, max: 9 }[selector], state: expected[selector][op] })
    })
  }

  it('the selector defaults to first, and legacy ops work through evaluate', () => {
    expect(evaluate({ column: 'n', op: 'greater than', value: 4 }, rows)).toEqual({ value: 5, state: 'triggered' })
    expect(evaluate({ column: 'n', op: 'equals', value: '5' }, rows)).toEqual({ value: 5, state: 'triggered' })
    expect(evaluate({ column: 'missing', op: '>', value: 1 }, rows)).toEqual({ value: null, state: 'unknown' })
  })
})

describe('should_notify with rearm', () => {
  const now = new Date('2026-01-01T12:00:00Z')
  const ago = (s: number) => new Date(now.getTime() - s * 1000)
  const stored = (state: AlertState, rearm: number | null, lastSeconds: number | null = 10, muted = false) =>
    ({ state, rearm, muted, lastTriggeredAt: lastSeconds === null ? null : ago(lastSeconds) })

  const STATES: AlertState[] = ['unknown', 'ok', 'triggered']
  for (const from of STATES) {
    for (const to of STATES) {
      if (from === to) continue
      it(`${from} → ${to} is recorded${from === 'unknown' && to === 'ok' ? ', nobody told' : ' and told'}`, () => {
        for (const rearm of [null, 0, 1, 60]) {
          const d = decide(stored(from, rearm), to, now)
          expect(d.record).toBe(true)
          expect(d.notify).toBe(!(from === 'unknown' && to === 'ok'))
        }
      })
    }
  }

  it.each(['unknown', 'ok'] as const)('%s staying %s records nothing, whatever the rearm', (state) => {
    for (const rearm of [null, 0, 1, 60]) expect(decide(stored(state, rearm, 1_000_000), state, now)).toEqual({ record: false, notify: false })
  })

  it('triggered staying triggered: null and 0 tell once; 1 on each evaluation; N at most every N seconds', () => {
    expect(decide(stored('triggered', null, 1_000_000), 'triggered', now).notify).toBe(false)
    expect(decide(stored('triggered', 0, 1_000_000), 'triggered', now).notify).toBe(false)
    expect(decide(stored('triggered', 1, 0), 'triggered', now).notify).toBe(true)
    expect(decide(stored('triggered', 60, 59), 'triggered', now)).toEqual({ record: false, notify: false })
    expect(decide(stored('triggered', 60, 60), 'triggered', now)).toEqual({ record: true, notify: true })
    expect(decide(stored('triggered', 60, null), 'triggered', now).notify).toBe(true)
  })

  it('muted: changes are recorded, nobody is told', () => {
    expect(decide(stored('ok', null, 10, true), 'triggered', now)).toEqual({ record: true, notify: false, skipped: 'muted' })
    expect(decide(stored('triggered', 1, 10, true), 'triggered', now)).toEqual({ record: true, notify: false, skipped: 'muted' })
    expect(decide(stored('unknown', null, 10, true), 'ok', now)).toEqual({ record: true, notify: false, skipped: 'unknown_to_ok' })
  })
})

describe('options', () => {
  const ok = { column: 'n', op: '>', value: 1 }
  it('are stored with symbols and a selector', () => {
    expect(parseOptions({ ...ok, op: 'greater than' })).toMatchObject({ op: '>', selector: 'first' })
    expect(parseOptions({ ...ok, op: '=', value: 'x' })).toMatchObject({ op: '==' })
    expect(parseOptions({ ...ok, value: '2.5' })).toMatchObject({ value: '2.5' })
  })

  it.each([
    [{ ...ok, op: '~' }, 'Unknown operator'],
    [{ ...ok, value: 'abc' }, "Value column type doesn't match threshold type."],
    [{ ...ok, value: true }, "Value column type doesn't match threshold type."],
    [{ ...ok, column: '' }, 'value column'],
    [{ op: '>', value: 1 }, 'value column'],
    [{ ...ok, value: undefined }, 'threshold'],
    [{ ...ok, value: { a: 1 } }, 'threshold'],
    [{ ...ok, selector: 'avg' }, 'selector'],
    [{ ...ok, muted: 'yes' }, 'muted'],
    [{ ...ok, custom_body: 'x'.repeat(50_001) }, 'too long'],
    [{ ...ok, custom_subject: 7 }, 'text'],
    [{ ...ok, parameters: [1] }, 'parameters'],
    [[], 'object'],
  ])('refuse %j', (options, message) => {
    expect(() => parseOptions(options)).toThrow(message)
  })

  it('== and != take text and booleans', () => {
    expect(parseOptions({ ...ok, op: '==', value: 'abc' })).toMatchObject({ value: 'abc' })
    expect(parseOptions({ ...ok, op: '!=', value: true })).toMatchObject({ value: true })
  })
})
