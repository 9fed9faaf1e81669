import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { NotFound } from '../../src/errors.ts'
import { idParam } from '../../src/http/index.ts'
import { profilePage } from './_profile.tsx'

/** A user's profile (spec 3 §2 "Users and profile"); /users/me is one's own. */
export default new Hono<Env>().get('/', (c) => profilePage(c, idParam(c.req.param('id'), NotFound)))
