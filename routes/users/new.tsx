import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { Redirect } from '../../src/errors.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import { listPage, TABS } from './_list.tsx'

/** The active users with the create dialog open, for admins (others are sent to the list). */
export default new Hono<Env>().get('/', (c) => {
  if (!isAdmin(signedIn(c).principal)) throw new Redirect('/users')
  return listPage(c, TABS[0], true)
})
