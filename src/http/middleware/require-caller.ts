import { createMiddleware } from 'hono/factory'
import { requirePrincipal } from '../../permissions/index.ts'
import type { CallerEnv } from '../env.ts'

/**
 * "This route needs a signed-in caller", said once in front of the route: 401 without a principal (the same refusal
 * `requirePrincipal` gives), else the handler reads a typed `c.var.principal` / `c.var.org`. Placed on each route
 * rather than with `.use()` on a whole sub-app: sub-apps are flattened into the app at their mount path, so a
 * `.use()` there would also guard the public routes mounted beside or under the same prefix, and turn an
 * anonymous 404 into a 401. It runs after `authenticate`, which the app installs before any route.
 */
export const requireCaller = createMiddleware<CallerEnv>(async function requireCaller(c, next) {
  requirePrincipal(c.get('principal'))
  await next()
})
