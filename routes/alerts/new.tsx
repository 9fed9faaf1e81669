import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { requireAllowed } from '../../src/permissions/index.ts'
import { alertPageTexts as t } from '../../src/shared/alert-page-texts.ts'
import { renderShellPage } from '../../src/ui/index.ts'
import { FormPage } from './_form.tsx'

/** The alert form for a new alert (spec 2 §2). */
export default new Hono<Env>()
  .get('/', (c) => {
    const { principal } = signedIn(c)
    requireAllowed(principal, 'list_alerts')
    return renderShellPage(c, <FormPage title={t.newAlert} alert={null} />, { title: t.newAlert, section: 'alerts' })
  })
