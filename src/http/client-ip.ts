import type { Context } from 'hono'
import type { Env } from './env.ts'

/** The caller's address as the nearest proxy reports it, else unknown (the socket is adapter-specific). */
export function clientIp(c: Context<Env>): string | undefined {
  const forwarded = c.req.header('x-forwarded-for')
  return forwarded?.split(',')[0]?.trim() || c.req.header('x-real-ip') || undefined
}
