import type { JSX, ReactNode } from 'react'
import { ui } from '../ui.ts'

/** The organization settings the settings page edits (spec 3 §3), as GET api/settings/organization names them. */
export interface OrgSettingsValues {
  date_format: string
  time_format: string
  /** Sightline's public origin, '' until an admin sets it (SIGHTLINE_BASE_URL, when set, overrides it). */
  base_url: string
  hide_plotly_mode_bar: boolean
  feature_show_permissions_control: boolean
  send_email_on_failed_scheduled_queries: boolean
  multi_byte_search_enabled: boolean
  /** null until an admin has answered the usage-data question. */
  beacon_consent: boolean | null
  auth_password_login_enabled: boolean
  auth_google_apps_domains: string[]
  auth_saml_enabled: boolean
  auth_saml_type: 'static' | 'dynamic'
  auth_saml_sso_url: string
  auth_saml_entity_id: string
  auth_saml_x509_cert: string
  auth_saml_metadata_url: string
  auth_saml_nameid_format: string
  auth_saml_groups_attribute: string
  disable_public_urls: boolean
  auth_oidc_enabled: boolean
  auth_oidc_issuer_url: string
  auth_oidc_client_id: string
  /** Masked ('--------') when one is saved: sent back unchanged, it keeps the saved one. */
  auth_oidc_client_secret: string
  auth_oidc_button_label: string
  auth_oidc_groups_claim: string
  auth_oidc_group_mappings: Record<string, string>
  auth_jwt_login_enabled: boolean
  auth_jwt_auth_issuer: string
  auth_jwt_auth_audience: string
  auth_jwt_auth_public_certs_url: string
  auth_jwt_auth_header_name: string
  auth_jwt_auth_cookie_name: string
  audit_log_retention_days: number
  /** Where reports' schedules are read when they name no time zone of their own ('UTC' by default). */
  time_zone: string
}

export const SETTING_KEYS = [
  'date_format', 'time_format', 'base_url', 'hide_plotly_mode_bar', 'feature_show_permissions_control',
  'send_email_on_failed_scheduled_queries', 'multi_byte_search_enabled', 'beacon_consent', 'auth_password_login_enabled',
  'auth_google_apps_domains', 'auth_saml_enabled', 'auth_saml_type', 'auth_saml_sso_url', 'auth_saml_entity_id',
  'auth_saml_x509_cert', 'auth_saml_metadata_url', 'auth_saml_nameid_format', 'auth_saml_groups_attribute',
  'disable_public_urls',
  'auth_oidc_enabled', 'auth_oidc_issuer_url', 'auth_oidc_client_id', 'auth_oidc_client_secret', 'auth_oidc_button_label',
  'auth_oidc_groups_claim', 'auth_oidc_group_mappings', 'auth_jwt_login_enabled', 'auth_jwt_auth_issuer', 'auth_jwt_auth_audience',
  'auth_jwt_auth_public_certs_url', 'auth_jwt_auth_header_name', 'auth_jwt_auth_cookie_name', 'audit_log_retention_days', 'time_zone',
] as const satisfies readonly (keyof OrgSettingsValues)[]

/** Only the page's keys, from a full settings object (the server answers with every setting). */
export function pickValues(settings: Record<string, unknown>): OrgSettingsValues {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, settings[k]])) as unknown as OrgSettingsValues
}

/** The keys whose value differs from the saved one: what a save sends, so the audit log names only real changes. */
export function changesOf(saved: OrgSettingsValues, values: OrgSettingsValues): Partial<OrgSettingsValues> {
  const out: Record<string, unknown> = {}
  for (const key of SETTING_KEYS) if (JSON.stringify(saved[key]) !== JSON.stringify(values[key])) out[key] = values[key]
  return out as Partial<OrgSettingsValues>
}

/** "a.com, b.org" → ['a.com', 'b.org']: commas or spaces separate, blanks and repeats drop out. */
export function parseDomains(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((d) => d.trim().toLowerCase()).filter(Boolean))]
}

/** A card with a heading: one group of settings. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }): JSX.Element {
  return (
    <section aria-labelledby={id} className={`${ui.card} flex flex-col gap-5 p-5 sm:p-6`}>
      <h2 id={id} className="text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
      {children}
    </section>
  )
}

/** A titled group of checkboxes inside a section. */
export function Group({ legend, children }: { legend: string; children: ReactNode }): JSX.Element {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className={ui.label}>{legend}</legend>
      {children}
    </fieldset>
  )
}

export function Check({ id, label, checked, onChange, disabled, describedBy }: {
  id: string; label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; describedBy?: string
}): JSX.Element {
  return (
    <label htmlFor={id} className={`flex items-start gap-2 text-sm ${disabled ? 'cursor-not-allowed text-slate-500 dark:text-slate-400' : 'cursor-pointer text-slate-700 dark:text-slate-200'}`}>
      <input id={id} type="checkbox" checked={checked} disabled={disabled} aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.checked)} className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-indigo-600 disabled:cursor-not-allowed" />
      <span>{label}</span>
    </label>
  )
}

export function Select({ id, label, value, options, onChange }: {
  id: string; label: string; value: string; options: readonly string[]; onChange: (value: string) => void
}): JSX.Element {
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={`${ui.input} ${ui.inputBorder}`}>
        {options.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    </div>
  )
}

export function TextField({ id, label, value, onChange, hint, multiline, readOnly, type = 'text' }: {
  id: string; label: string; value: string; onChange: (value: string) => void; hint?: string; multiline?: boolean
  readOnly?: boolean; type?: 'text' | 'url'
}): JSX.Element {
  const common = {
    id, value, readOnly, spellCheck: false, 'aria-describedby': hint ? `${id}-hint` : undefined,
    className: `${ui.input} ${ui.inputBorder} ${multiline ? 'font-mono text-xs' : ''} ${readOnly ? 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-400' : ''}`,
  }
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {multiline
        ? <textarea {...common} rows={5} onChange={(e) => onChange(e.target.value)} />
        : <input {...common} type={type} onChange={(e) => onChange(e.target.value)} />}
      {hint && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
    </div>
  )
}

/** A notice inside the form: amber, with a warning sign, for what the admin should know before relying on a setting. */
export function Warning({ id, children }: { id?: string; children: ReactNode }): JSX.Element {
  return (
    <p id={id} role="note" className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
      <svg viewBox="0 0 24 24" className="mt-0.5 h-4 w-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>{children}</span>
    </p>
  )
}
