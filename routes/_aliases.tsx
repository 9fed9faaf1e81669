import { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'

/**
 * Addresses kept for old links and for the established tool's clients, each declared whole here and nowhere else:
 * every other address is served by the file its path names (scripts/routes-manifest.ts). Mounted at `/` after every
 * route file.
 */
export default new Hono<Env>()
