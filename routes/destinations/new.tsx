import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { Redirect } from '../../src/errors.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import { listPage } from './_list.tsx'

/** The alert destination list with the create dialog open. */
export default new Hono<Env>().get('/', (c) => {
  // as data sources: whoever cannot create one is sent to the list
  if (!isAdmin(signedIn(c).principal)) throw new Redirect('/destinations')
  return listPage(c, true)
})
