import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { Redirect } from '../../src/errors.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import { listPage } from './_list.tsx'

/** The data source list with the create dialog open. */
export default new Hono<Env>().get('/', (c) => {
  // "If the user cannot create a data source, they are redirected to the list."
  if (!isAdmin(signedIn(c).principal)) throw new Redirect('/data_sources')
  return listPage(c, true)
})
