import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { profilePage } from './_profile.tsx'

/** The caller's own profile (spec 3 §2 "Users and profile"). */
export default new Hono<Env>().get('/', (c) => profilePage(c, signedIn(c).principal.id))
