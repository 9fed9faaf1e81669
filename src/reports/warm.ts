import type { Db } from '../db/index.ts'
import { warmRenderer } from '../rendering/index.ts'
import { anyActiveSubscription } from './store.ts'

/**
 * A worker of an installation that sends reports gets its drawing ready as it starts (src/rendering/warm.ts), so
 * the first report it sends is drawn as fast as the next ones; one that sends none keeps that memory and CPU.
 */
export async function warmForReports(db: Db): Promise<boolean> {
  if (!(await anyActiveSubscription(db))) return false
  await warmRenderer()
  return true
}
