import type { CoreDeps } from '../deps.ts'
import { findLiveImage } from './send-store.ts'
import { readImageToken } from './signed-links.ts'

/** A report's picture by its signed address, while the link and the stored picture last; undefined otherwise. */
export async function reportImage(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, token: string): Promise<Buffer | undefined> {
  const id = readImageToken(deps.secretKey, token)
  return id === undefined ? undefined : findLiveImage(deps.sql, id)
}
