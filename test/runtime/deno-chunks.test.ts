import { execFile } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { chunkJson, encodeChunk } from '../../src/results/index.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const codec = pathToFileURL(path.join(ROOT, 'src/results/chunk-codec.ts')).href

const rows = Array.from({ length: 5_000 }, (_, i) => [i, `name ${i}`, i % 3 === 0 ? null : 'ünïcødé ✓'])

it('result chunks stored under Node are read under Deno, and the other way round', async () => {
  const fromNode = await encodeChunk(rows.map((row) => JSON.stringify(row)))
  // 5,000 rows: large enough for the thread pool, small enough for one argument; Deno reads Node's chunk, and answers with the rows it read stored as a chunk of its own
  const script = `
    import { chunkJson, encodeChunk } from ${JSON.stringify(codec)}
    const read = JSON.parse((await chunkJson(Buffer.from(${JSON.stringify(fromNode.toString('base64'))}, 'base64'))).toString('utf8'))
    console.log((await encodeChunk(read.map((row) => JSON.stringify(row)))).toString('base64'))`
  const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/deno/deno'), ['eval', '--ext=ts', script], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
  const fromDeno = Buffer.from(stdout.trim(), 'base64')
  expect(JSON.parse((await chunkJson(fromDeno)).toString('utf8'))).toEqual(rows)
}, 60_000)
