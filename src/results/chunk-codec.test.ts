import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { chunkJson, encodeChunk } from './chunk-codec.ts'

const decodeChunk = async (stored: Uint8Array) => JSON.parse((await chunkJson(stored)).toString('utf8')) as unknown

const rows = (n: number) => Array.from({ length: n }, (_, i) => [i, `name ${i}`, i % 2 === 0, null, { nested: [i] }, 'ünïcødé ✓'])

describe('result chunks', () => {
  it('read back exactly what was written, small and large', async () => {
    for (const n of [0, 1, 50, 20_000]) {
      const stored = await encodeChunk([JSON.stringify(rows(n)).slice(1, -1)])
      expect(await decodeChunk(stored)).toEqual(rows(n))
    }
  })

  it('are much smaller than their text', async () => {
    const text = JSON.stringify(rows(10_000))
    expect((await encodeChunk([text.slice(1, -1)])).length).toBeLessThan(text.length / 4)
  })

  it('still read chunks stored as raw deflate before brotli', async () => {
    const old = await promisify(zlib.deflateRaw)(Buffer.from(JSON.stringify(rows(300))), { level: 1 })
    expect(await decodeChunk(new Uint8Array(old))).toEqual(rows(300))
  })
})
