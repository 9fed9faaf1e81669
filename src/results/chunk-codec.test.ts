import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { chunkJson, encodeChunk, UnreadableChunk } from './chunk-codec.ts'

const decodeChunk = async (stored: Uint8Array) => JSON.parse((await chunkJson(stored)).toString('utf8')) as unknown

const rows = (n: number) => Array.from({ length: n }, (_, i) => [i, `name ${i}`, i % 2 === 0, null, { nested: [i] }, 'ünïcødé ✓'])

/** A chunk as Sightline stored it before zstd: a 0xff mark, then brotli at quality 1. */
const brotliChunk = (value: unknown) => Buffer.concat([
  Buffer.of(0xff),
  zlib.brotliCompressSync(JSON.stringify(value), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
])

describe('result chunks', () => {
  it('read back exactly what was written, small and large', async () => {
    for (const n of [0, 1, 50, 20_000]) {
      const stored = await encodeChunk([JSON.stringify(rows(n)).slice(1, -1)])
      expect(await decodeChunk(stored)).toEqual(rows(n))
    }
  })

  it('read back rows handed over as several pieces of text and bytes', async () => {
    const pieces = rows(3).map((row, i) => (i === 1 ? Buffer.from(JSON.stringify(row)) : JSON.stringify(row)))
    expect(await decodeChunk(await encodeChunk(pieces))).toEqual(rows(3))
  })

  it('are written as zstd, much smaller than their text', async () => {
    const text = JSON.stringify(rows(10_000))
    const stored = await encodeChunk([text.slice(1, -1)])
    expect(stored[0]).toBe(0xfe)
    expect(stored.subarray(1, 5)).toEqual(Buffer.from([0x28, 0xb5, 0x2f, 0xfd])) // zstd's frame magic
    expect(stored.length).toBeLessThan(text.length / 4)
  })

  it('store a small chunk as its text, marked plain: compression would only add to it', async () => {
    const text = JSON.stringify(rows(2))
    const stored = await encodeChunk([text.slice(1, -1)])
    expect(stored[0]).toBe(0xf7)
    expect(stored.subarray(1).toString('utf8')).toBe(text)
    expect(await decodeChunk(stored)).toEqual(rows(2))
  })

  it('still read chunks stored as brotli, small and large', async () => {
    for (const n of [5, 20_000]) expect(await decodeChunk(brotliChunk(rows(n)))).toEqual(rows(n))
  })

  it('still read chunks stored as raw deflate before brotli', async () => {
    const old = await promisify(zlib.deflateRaw)(Buffer.from(JSON.stringify(rows(300))), { level: 1 })
    expect(await decodeChunk(new Uint8Array(old))).toEqual(rows(300))
  })

  it('refuse a chunk of a format they do not know, saying so', async () => {
    const unknown = Buffer.concat([Buffer.of(0xf6), zlib.zstdCompressSync(JSON.stringify(rows(3)))])
    await expect(chunkJson(unknown)).rejects.toThrow(UnreadableChunk)
    await expect(chunkJson(unknown)).rejects.toThrow('A stored result chunk is marked 0xf6, a format this version of Sightline cannot read')
    await expect(chunkJson(new Uint8Array())).rejects.toThrow('A stored result chunk is empty.')
  })
})
