import { Hono, type Context } from 'hono'
import type { JSX } from 'react'
import { csrfTokenFor, openSession } from '../src/credentials/index.ts'
import { Conflict, Redirect } from '../src/errors.ts'
import { addDemoSource } from '../src/demo/index.ts'
import { recordEvent } from '../src/events/index.ts'
import { isSecure, setCsrfCookie, setSessionCookie, renderPage, formBody } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { originTexts, proposedOrigin } from '../src/settings/index.ts'
import { checkSetupForm, type SetupErrors, setupOrganization, type SetupInput } from '../src/orgs/index.ts'
import { texts } from '../src/shared/texts.ts'
import { AuthLayout, Field, primaryButton } from '../src/ui/index.ts'

/**
 * `origin`: the address links will be built on. SIGHTLINE_BASE_URL's, shown read-only, or a proposal (the address this
 * form was opened on) the admin confirms or corrects.
 */
function SetupPage({ values, errors, origin }: {
  values?: Partial<SetupInput>; errors?: SetupErrors; origin: { value: string; fromEnvironment: boolean }
}): JSX.Element {
  return (
    <AuthLayout title={texts.setup.title}>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">{texts.setup.intro}</p>
      <form method="post" action="/setup" noValidate>
        <fieldset>
          <legend className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{texts.setup.adminUser}</legend>
          <Field label={texts.setup.name} name="name" defaultValue={values?.name} error={errors?.name} autoComplete="name" autoFocus />
          <Field label={texts.setup.email} name="email" type="email" defaultValue={values?.email} error={errors?.email} autoComplete="email" />
          <Field label={texts.setup.password} name="password" type="password" error={errors?.password} hint={texts.setup.passwordHint} autoComplete="new-password" />
        </fieldset>
        <fieldset className="mt-2">
          <legend className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{texts.setup.general}</legend>
          <Field label={texts.setup.orgName} name="org_name" defaultValue={values?.org_name} error={errors?.org_name} hint={texts.setup.orgNameHint} autoComplete="organization" />
          <Field label={originTexts.label} name="base_url" type="url" defaultValue={values?.base_url || origin.value} error={errors?.base_url}
            hint={origin.fromEnvironment ? originTexts.fromEnvironment : originTexts.hint} autoComplete="url" readOnly={origin.fromEnvironment} />
        </fieldset>
        <button type="submit" className={`${primaryButton} mt-2`}>{texts.setup.submit}</button>
      </form>
    </AuthLayout>
  )
}

/** The origin the form shows: SIGHTLINE_BASE_URL when set, else the address the form was opened on. */
function originField(c: Context<Env>) {
  const configured = c.get('deps').config.baseUrl
  return configured ? { value: configured, fromEnvironment: true } : { value: proposedOrigin(c.req.url, isSecure(c)), fromEnvironment: false }
}

/** First run (reference §1.2): only while no organization exists; afterwards it leads home. */
export default new Hono<Env>()
  .get('/', (c) => {
    if (c.get('org')) throw new Redirect('/')
    return renderPage(c, <SetupPage origin={originField(c)} />, { title: texts.setup.submit })
  })
  .post('/', async (c) => {
    if (c.get('org')) throw new Redirect('/')
    const origin = originField(c)
    const { input, errors } = checkSetupForm(await formBody(c.req), { originFromEnvironment: origin.fromEnvironment })
    if (Object.keys(errors).length) {
      return renderPage(c, <SetupPage values={input} errors={errors} origin={origin} />, { title: texts.setup.submit, status: 400 })
    }
    const deps = c.get('deps')
    let created
    try {
      created = await setupOrganization(deps.sql, deps.secretKey, input)
    } catch (error) {
      if (error instanceof Conflict) throw new Redirect('/')
      throw error
    }
    await deps.bus.invalidate('org', created.orgId)
    await addDemoSource(deps, created.orgId)
    await recordEvent(deps.sql, { orgId: created.orgId, userId: created.userId, action: 'create', objectType: 'organization', objectId: created.orgId })
    const token = await openSession(deps, created.userId, false, { userAgent: c.req.header('user-agent') })
    setSessionCookie(c, token, undefined)
    setCsrfCookie(c, csrfTokenFor(deps, token))
    return c.redirect('/')
  })
