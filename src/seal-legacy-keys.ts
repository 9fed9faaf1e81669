import type { Sql } from './db/index.ts'
import { log } from './log.ts'
import { legacyPlainQueryKeys, sealLegacyQueryKeys } from './queries/index.ts'
import { sealApiKey, legacyPlainApiKeys, sealLegacyApiKeys } from './credentials/index.ts'

const BATCH = 1000

/**
 * Migration 0010 hashed every API key in SQL but could not seal them, which takes SIGHTLINE_SECRET_KEY: the keys that
 * existed then keep a plain copy until this seals it and empties it. Runs at every start, right after the
 * migrations and before anything is served; once done it finds nothing (through a partial index) and costs nothing.
 */
export async function sealLegacyKeys(sql: Sql, secretKey: string): Promise<number> {
  let sealed = 0
  for (const [read, write] of [[legacyPlainApiKeys, sealLegacyApiKeys], [legacyPlainQueryKeys, sealLegacyQueryKeys]] as const) {
    for (;;) {
      const batch = await read(sql, BATCH)
      if (!batch.length) break
      await write(sql, batch.map(({ id, key }) => ({ id, sealed: sealApiKey(secretKey, key) })))
      sealed += batch.length
      if (batch.length < BATCH) break
    }
  }
  if (sealed) log.info('API keys kept in plain text were sealed', { keys: sealed })
  return sealed
}
