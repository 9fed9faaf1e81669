import fs from 'node:fs'
import path from 'node:path'
import { randomToken } from './tokens.ts'

/**
 * SIGHTLINE_SECRET_KEY, or one generated on first start and kept in the data dir. Processes on several machines
 * must share one key, so operators who scale out set the variable.
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured
  const file = path.join(dataDir, 'secret-key')
  fs.mkdirSync(dataDir, { recursive: true })
  try {
    fs.writeFileSync(file, randomToken(48), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return fs.readFileSync(file, 'utf8').trim()
}
