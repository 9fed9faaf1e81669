import { describe, expect, it } from 'vitest'
import { applyAutoLimit } from './auto-limit.ts'

describe('applyAutoLimit', () => {
  it.each([
    ['SELECT 2', 'SELECT 2 LIMIT 1000'],
    ['select * from raw_events; -- comment', 'select * from raw_events LIMIT 1000; -- comment'],
    ['select * from raw_events -- trailing comment', 'select * from raw_events LIMIT 1000 -- trailing comment'],
    ['select * from t1;\nselect * from t2', 'select * from t1;\nselect * from t2 LIMIT 1000'],
    ['select * from t1;\nselect * from t2;\n\n', 'select * from t1;\nselect * from t2 LIMIT 1000;\n\n'],
    ['select * from t where id in (select id from u limit 200)', 'select * from t where id in (select id from u limit 200) LIMIT 1000'],
    ['/* hi */ select 1 /* bye */', '/* hi */ select 1 LIMIT 1000 /* bye */'],
    ['with x as (select 1 as a) select * from x', 'with x as (select 1 as a) select * from x LIMIT 1000'],
    ["select ';' as semi, 'limit' as word", "select ';' as semi, 'limit' as word LIMIT 1000"],
    ['select $$ ; limit $$ as body', 'select $$ ; limit $$ as body LIMIT 1000'],
  ])('%j → %j', (text, expected) => {
    expect(applyAutoLimit(text)).toBe(expected)
  })

  it.each([
    'select * from t limit 10',
    'SELECT * FROM t LIMIT 10 OFFSET 20',
    'select * from t offset 5',
    'select * from t fetch first 5 rows only',
    'select * from t for update',
    'select * into new_table from t',
    'insert into t select * from u',
    'update t set a = 1',
    'with x as (select 1) insert into t select * from x',
    'create table t (a int)',
    'show tables',
    '',
    '   ;  -- nothing',
    'select 1; delete from t',
  ])('leaves %j unchanged', (text) => {
    expect(applyAutoLimit(text)).toBe(text)
  })

  it('takes another limit', () => {
    expect(applyAutoLimit('select 1', 50)).toBe('select 1 LIMIT 50')
  })
})
