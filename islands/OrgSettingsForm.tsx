import { useState, type FormEvent, type JSX } from 'react'
import { reportUiTexts } from '../src/shared/report-texts.ts'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api, ApiError } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { AuthSettings } from './lib/org-settings/AuthSettings.tsx'
import { LoginProviderSettings } from './lib/org-settings/LoginProviderSettings.tsx'
import { changesOf, Check, Group, parseDomains, pickValues, Section, Select, TextField, Warning, type OrgSettingsValues } from './lib/org-settings/fields.tsx'
import { originTexts } from '../src/shared/origin-texts.ts'
import { ui } from './lib/ui.ts'

const t = texts.orgSettings

export interface OrgSettingsFormProps {
  settings: OrgSettingsValues
  /** The configuration's choice lists (client config's dateFormatList and timeFormatList). */
  dateFormats: string[]
  timeFormats: string[]
  /** Whether a login method besides passwords is on: only then may password login be switched off. */
  otherLoginMethod: boolean
  /** Whether a mail server is configured: mails about failed scheduled queries need one. */
  mailConfigured: boolean
  /** SIGHTLINE_BASE_URL when the operator set it: it decides Sightline's address, shown read-only. */
  originFromEnvironment: string | null
}

/** The server's message, when it sent one (or the connection failed), to follow 'Failed saving changes.'. */
function detailOf(error: unknown): string {
  if (!(error instanceof ApiError)) return ''
  const body = error.body as { message?: unknown } | null
  return error.status === 0 || (typeof body === 'object' && body && typeof body.message === 'string') ? error.message : ''
}

/** The organization settings form (spec 3 §3): General and Authentication, saved together. */
function OrgSettingsForm({ settings, dateFormats, timeFormats, otherLoginMethod, mailConfigured, originFromEnvironment }: OrgSettingsFormProps): JSX.Element {
  const [saved, setSaved] = useState(settings)
  const [values, setValues] = useState(settings)
  const [domains, setDomains] = useState(settings.auth_google_apps_domains.join(', '))
  const [saving, setSaving] = useState(false)
  const set = (change: Partial<OrgSettingsValues>) => setValues((v) => ({ ...v, ...change }))
  const edited = { ...values, auth_google_apps_domains: parseDomains(domains) }
  const changes = changesOf(saved, edited)
  const dirty = Object.keys(changes).length > 0

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (saving || !dirty) return
    setSaving(true)
    try {
      const answer = await api<{ settings: Record<string, unknown> }>('POST', '/api/settings/organization', changes)
      const now = pickValues(answer.settings)
      setSaved(now)
      setValues(now)
      setDomains(now.auth_google_apps_domains.join(', '))
      toast(texts.settings.saved)
    } catch (error) {
      toast(`${texts.settings.failed} ${detailOf(error)}`.trim(), 'error')
    } finally {
      setSaving(false)
    }
  }

  return (
    <form noValidate onSubmit={submit} aria-busy={saving || undefined} className="flex flex-col gap-6">
      <Section id="org-settings-general" title={t.general}>
        {originFromEnvironment !== null
          ? <TextField id="org-base-url" type="url" label={originTexts.label} value={originFromEnvironment} readOnly onChange={() => {}} hint={originTexts.fromEnvironment} />
          : <TextField id="org-base-url" type="url" label={originTexts.label} value={values.base_url} onChange={(v) => set({ base_url: v })} hint={originTexts.hint} />}
        <div className="grid gap-4 sm:grid-cols-2">
          <Select id="org-date-format" label={t.dateFormat} value={values.date_format} options={dateFormats} onChange={(v) => set({ date_format: v })} />
          <Select id="org-time-format" label={t.timeFormat} value={values.time_format} options={timeFormats} onChange={(v) => set({ time_format: v })} />
        </div>
        <TextField id="org-time-zone" label={reportUiTexts.orgTimeZone} value={values.time_zone ?? 'UTC'} onChange={(v) => set({ time_zone: v })} hint={reportUiTexts.orgTimeZoneHint} />
        <Group legend={t.charts}>
          <Check id="org-hide-mode-bar" label={t.hideModeBar} checked={values.hide_plotly_mode_bar}
            onChange={(c) => set({ hide_plotly_mode_bar: c })} />
        </Group>
        <Group legend={t.featureFlags}>
          <Check id="org-permissions-control" label={t.permissionsControl} checked={values.feature_show_permissions_control}
            onChange={(c) => set({ feature_show_permissions_control: c })} />
          <Check id="org-failed-query-emails" label={t.failedQueryEmails} checked={values.send_email_on_failed_scheduled_queries}
            describedBy={mailConfigured ? undefined : 'org-mail-warning'} onChange={(c) => set({ send_email_on_failed_scheduled_queries: c })} />
          {!mailConfigured && <Warning id="org-mail-warning">{t.mailWarning(t.failedQueryEmailsFeature)}</Warning>}
          <Check id="org-multi-byte-search" label={t.multiByteSearch} checked={values.multi_byte_search_enabled}
            onChange={(c) => set({ multi_byte_search_enabled: c })} />
        </Group>
        <Group legend={t.publicUrls}>
          <Check id="org-disable-public-urls" label={t.disablePublicUrls} checked={values.disable_public_urls}
            describedBy="org-disable-public-urls-hint" onChange={(c) => set({ disable_public_urls: c })} />
          <p id="org-disable-public-urls-hint" className="pl-6 text-xs text-slate-500 dark:text-slate-400">{t.disablePublicUrlsHint}</p>
        </Group>
        <Group legend={t.usageData}>
          <Check id="org-beacon-consent" label={t.beaconConsent} checked={values.beacon_consent === true}
            onChange={(c) => set({ beacon_consent: c })} />
        </Group>
      </Section>
      <AuthSettings values={values} savedPasswordLogin={saved.auth_password_login_enabled} otherLoginMethod={otherLoginMethod}
        domains={domains} set={set} setDomains={setDomains} />
      <LoginProviderSettings key={JSON.stringify(saved.auth_oidc_group_mappings)} values={values} set={set} />
      <div className="flex justify-end">
        <button type="submit" disabled={saving || !dirty} className={ui.primaryButton}>{t.save}</button>
      </div>
    </form>
  )
}

export default island('OrgSettingsForm', OrgSettingsForm)
