import { describe, expect, it } from 'vitest'
import { isPlainRead } from './plain-read.ts'

describe('isPlainRead: what may run twice when a crashed run could not be confirmed stopped', () => {
  it('takes reads as reads, comments and several statements included', () => {
    for (const text of [
      'select 1',
      '/* Username: a@b.c */ select * from orders where status <> \'insert\'',
      'with t as (select 1 as n) select n from t; show timezone',
      '(select 1) union all (select 2)',
      'explain select * from t',
      'values (1), (2)',
      'select "update", "delete" from t',
    ]) expect(isPlainRead(text, 'sql'), text).toBe(true)
  })

  it('takes anything that may change data as a write, wherever the word sits', () => {
    for (const text of [
      'insert into t values (1)',
      'update t set n = 1',
      'with gone as (delete from t returning *) select * from gone',
      'select * into copy_of_t from t',
      'explain analyze delete from t',
      'select nextval(\'s\')',
      'select pg_sleep(5); select nextval(\'s\')',
      'select 1; drop table t',
      'select * from t for update',
      'set search_path = x; select 1',
      'call refresh_everything()',
      '',
    ]) expect(isPlainRead(text, 'sql'), text).toBe(false)
  })

  it('takes a JSON source\'s request as a read unless it sends a body or says POST', () => {
    expect(isPlainRead('url: https://example.com/api\npath: items', 'json')).toBe(true)
    expect(isPlainRead('{"url": "https://example.com/api", "method": "get"}', 'json')).toBe(true)
    expect(isPlainRead('url: https://example.com/api\nmethod: post', 'json')).toBe(false)
    expect(isPlainRead('{"url": "https://example.com/api", "json": {"a": 1}}', 'json')).toBe(false)
  })
})
