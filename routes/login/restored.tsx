import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { renderPage } from '../../src/http/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { AuthLayout } from '../../src/ui/index.ts'

/** The login popup of the session-expired modal lands here: tell the page that opened it, then close. */
export default new Hono<Env>()
  .get('/', (c) =>
    renderPage(c, (
      <AuthLayout title={texts.login.restored}>
        <script src="/static/session-restored.js" />
      </AuthLayout>
    ), { title: texts.login.submit }))
