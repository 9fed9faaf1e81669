import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabase, type TestDatabase } from '../../test/helpers/db.ts'
import { BinaryCopyFields, copyByteaColumn } from './binary-copy.ts'
import { connect } from './sql.ts'

/** A binary COPY of one bytea column, as PostgreSQL writes it. */
function binaryCopy(fields: Buffer[], extension = Buffer.alloc(0)): Buffer {
  const header = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4), Buffer.alloc(4), extension])
  header.writeUInt32BE(extension.length, 15)
  const rows = fields.map((f) => {
    const head = Buffer.alloc(6)
    head.writeInt16BE(1, 0)
    head.writeInt32BE(f.length, 2)
    return Buffer.concat([head, f])
  })
  return Buffer.concat([header, ...rows, Buffer.from([0xff, 0xff])])
}

let db: TestDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(async () => {
  await db?.drop()
})

describe('binary COPY of a bytea column', () => {
  it('reads every field whatever the pieces the stream arrives in', () => {
    const fields = [Buffer.from('first'), Buffer.alloc(0), crypto.randomBytes(300), Buffer.from('last')]
    const stream = binaryCopy(fields, Buffer.from('ext'))
    for (let a = 0; a <= stream.length; a += 7) {
      for (const b of [a, a + 1, a + 13, stream.length]) {
        const reader = new BinaryCopyFields()
        const read = [stream.subarray(0, a), stream.subarray(a, Math.max(a, b)), stream.subarray(Math.max(a, b))].flatMap((p) => reader.push(p))
        expect(read.map((f) => f.toString('hex')), `cut at ${a} and ${b}`).toEqual(fields.map((f) => f.toString('hex')))
        expect(reader.ended).toBe(true)
      }
    }
  })

  it('reads the stored bytes from the database, and a reader that stops early leaves the connection usable', async () => {
    const stored = Array.from({ length: 40 }, (_, i) => crypto.randomBytes(1000 + i * 5000))
    await db.sql`create table blobs (seq int, data bytea)`
    for (const [seq, data] of stored.entries()) await db.sql`insert into blobs values (${seq}, ${data})`
    const one = connect(db.url, { max: 1 })
    try {
      const read: Buffer[] = []
      for await (const field of copyByteaColumn(one, 'select data from blobs order by seq')) read.push(Buffer.from(field))
      expect(read).toEqual(stored)
      for await (const field of copyByteaColumn(one, 'select data from blobs order by seq')) {
        expect(field.length).toBe(1000)
        break
      }
      expect((await one`select count(*)::int as n from blobs`)[0].n).toBe(40)
    } finally {
      await one.end()
    }
  })
})
