import { describe, expect, it } from 'vitest'
import { annotate, annotationOf, withoutAnnotation } from './annotate.ts'
import { splitStatements } from './statements.ts'

describe('annotate', () => {
  it('prefixes a comment naming user, query, queue and whether it was scheduled', () => {
    expect(annotate('select 1', { user: 'ann@example.com', queryId: 7, queue: 'queries', scheduled: false }))
      .toBe('/* Username: ann@example.com, Query ID: 7, Queue: queries, Scheduled: False */ select 1')
    expect(annotate('select 1', { user: 'ann@example.com', queryId: null, queue: 'queries', scheduled: false }))
      .toBe('/* Username: ann@example.com, Query ID: adhoc, Queue: queries, Scheduled: False */ select 1')
  })

  it('puts the query id first for scheduled runs, like the established tool', () => {
    expect(annotate('select 1', { user: 'ann@example.com', queryId: 12, queue: 'scheduled_queries', scheduled: true }))
      .toBe('/* Query ID: 12, Username: ann@example.com, Queue: scheduled_queries, Scheduled: True */ select 1')
  })

  it('cannot be escaped: comment delimiters and newlines are removed from values', () => {
    const text = annotate('select 1', { user: 'x */ drop table users; /*', queryId: '1*/*/', queue: 'q/*\n*/', scheduled: false })
    expect(text).toBe('/* Username: x  drop table users; , Query ID: 1, Queue: q , Scheduled: False */ select 1')
    expect(annotate('select 1', { user: '**//', queryId: 1, queue: 'q', scheduled: false })).not.toMatch(/\*\/.*\*\//)
    // the whole annotation stays one comment: the statement is still just `select 1`
    expect(splitStatements(text).map((s) => s.significant.map((t) => t.text).join(' '))).toEqual(['select 1'])
  })
})

describe('withoutAnnotation', () => {
  const annotation = annotationOf({ user: 'ann@example.com', queryId: 181, queue: 'ds:1', scheduled: false })

  it('drops a quoted annotation, cut at the left, and moves the caret under the mistake', () => {
    const message = 'Binder Error: Referenced column "nope" not found\n\n' +
      'LINE 1: ....com, Query ID: 181, Queue: ds:1, Scheduled: False */ select nope from range(3)\n' +
      '                                                                        ^'
    const lines = withoutAnnotation(message, annotation).split('\n')
    expect(lines[2]).toBe('LINE 1: select nope from range(3)')
    expect(lines[3].indexOf('^')).toBe(lines[2].indexOf('nope'))
  })

  it('drops a whole quoted annotation, and leaves messages that do not quote it alone', () => {
    expect(withoutAnnotation(`near "${annotation} selec": syntax error`, annotation)).toBe('near "selec": syntax error')
    expect(withoutAnnotation('column "nope" does not exist', annotation)).toBe('column "nope" does not exist')
    expect(withoutAnnotation('a */ b', annotation)).toBe('a */ b')
  })
})
