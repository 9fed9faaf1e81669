import { describe, expect, it } from 'vitest'
import { fitsTransaction } from './write-guard.ts'

describe('fitsTransaction: which writes run inside a transaction the worker commits', () => {
  it('PostgreSQL: data changes and DDL, one or several statements', () => {
    for (const text of [
      'insert into t values (1)',
      '/* Username: a@b.c */ update t set n = 1 returning n',
      'with gone as (delete from t returning *) select * from gone',
      'truncate t; insert into t select * from s',
      'create table t2 as select * from t',
      'select nextval(\'s\')',
      'lock table t in exclusive mode; update t set n = 2',
    ]) expect(fitsTransaction(text, 'postgres'), text).toBe(true)
  })

  it('PostgreSQL: not what ends a transaction itself, or runs only outside one', () => {
    for (const text of [
      'begin; insert into t values (1); commit',
      'insert into t values (1); commit',
      'insert into t values (1); rollback',
      'call refresh_everything()',
      'do $$ begin perform 1; end $$',
      'vacuum t',
      'create index concurrently on t (n)',
      'create database other',
      'alter system set work_mem = \'1GB\'',
      '',
    ]) expect(fitsTransaction(text, 'postgres'), text).toBe(false)
  })

  it('MySQL: data changes only, DDL committing on its own', () => {
    for (const text of [
      'insert into t (n) select n from s',
      'replace into t values (1); select count(*) from t',
      'update t set n = 1; delete from s',
    ]) expect(fitsTransaction(text, 'mysql'), text).toBe(true)
    for (const text of [
      'create table t2 as select * from t',
      'insert into t values (1); create table x (n int)',
      'truncate t',
      'set autocommit = 1; insert into t values (1)',
      'start transaction; insert into t values (1); commit',
      'call refresh()',
      'select * from t into outfile \'/tmp/t\'',
      'lock tables t write',
    ]) expect(fitsTransaction(text, 'mysql'), text).toBe(false)
  })
})
