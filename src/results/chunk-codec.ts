import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { Cell } from '../runners/runner.ts'

const deflateRaw = promisify(zlib.deflateRaw)
const inflateRaw = promisify(zlib.inflateRaw)

/**
 * Stored chunks are the JSON text of an array of row arrays, deflated at level 1 in the worker's thread pool: about
 * ten times smaller than the text, and faster to write and read back than leaving it to PostgreSQL (pglz, the only
 * compression some builds have, costs more than the query itself on large results).
 */
export function encodeChunk(rowsJson: string): Promise<Buffer> {
  return deflateRaw(Buffer.from(rowsJson, 'utf8'), { level: 1 })
}

export async function decodeChunk(stored: Uint8Array): Promise<Cell[][]> {
  return JSON.parse((await inflateRaw(stored)).toString('utf8')) as Cell[][]
}
