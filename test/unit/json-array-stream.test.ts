import { describe, expect, it } from 'vitest'
import { jsonArrayStream, writtenJson } from '../../src/results/index.ts'

async function* batchesOf<T>(batches: T[][]) {
  for (const batch of batches) yield batch
}

async function written(stream: ReadableStream<Uint8Array>) {
  return new TextDecoder().decode(new Uint8Array(await new Response(stream).arrayBuffer()))
}

describe('a JSON array written batch by batch', () => {
  const items = [{ a: 1, text: 'ünïcode — “quoted” \u2028 \u0001 😀' }, { b: null }, [1, 'two'], 'plain', { c: { d: [] } }]

  it('is what JSON.stringify writes for the whole array, however it is cut into batches', async () => {
    for (const cut of [[5], [1, 4], [2, 0, 3], [0, 1, 1, 1, 1, 1, 0]]) {
      const batches: unknown[][] = []
      let at = 0
      for (const size of cut) batches.push(items.slice(at, (at += size)))
      expect(await written(jsonArrayStream(batchesOf(batches)))).toBe(JSON.stringify(items))
    }
  })

  it('takes items already written as JSON as they are', async () => {
    const texts = items.map((item) => JSON.stringify(item))
    expect(await written(jsonArrayStream(batchesOf([texts.slice(0, 2), texts.slice(2)]), writtenJson))).toBe(JSON.stringify(items))
  })

  it('is [] for no items', async () => {
    expect(await written(jsonArrayStream(batchesOf([])))).toBe('[]')
    expect(await written(jsonArrayStream(batchesOf([[], []])))).toBe('[]')
  })
})
