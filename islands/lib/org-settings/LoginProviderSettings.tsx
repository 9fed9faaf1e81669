import { useState, type JSX } from 'react'
import { loginSettingsTexts as t } from '../../../src/shared/login-settings-texts.ts'
import { ui } from '../ui.ts'
import { Check, Group, Section, TextField, type OrgSettingsValues } from './fields.tsx'

type Set = (change: Partial<OrgSettingsValues>) => void

/** A JSON object of strings, or undefined when the text is not one. */
function parseMappings(text: string): Record<string, string> | undefined {
  try {
    const value: unknown = JSON.parse(text.trim() || '{}')
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    return Object.values(value).every((v) => typeof v === 'string') ? value as Record<string, string> : undefined
  } catch {
    return undefined
  }
}

/**
 * Sign-in through an OpenID Connect provider and through an access proxy's JWT, and how long the audit log keeps
 * its events: saved with the rest of the organization settings.
 */
export function LoginProviderSettings({ values, set }: { values: OrgSettingsValues; set: Set }): JSX.Element {
  const [mappings, setMappings] = useState(JSON.stringify(values.auth_oidc_group_mappings, null, 2))
  const [retention, setRetention] = useState(String(values.audit_log_retention_days))
  const mappingsValid = parseMappings(mappings) !== undefined
  const retentionValid = /^\d{1,5}$/.test(retention.trim()) && Number(retention) <= 36500
  return (
    <>
      <Section id="org-settings-identity-providers" title={t.oidc}>
        <Check id="org-oidc-enabled" label={t.oidcEnabled} checked={values.auth_oidc_enabled} onChange={(c) => set({ auth_oidc_enabled: c })} />
        {values.auth_oidc_enabled && (
          <div className="flex flex-col gap-4 border-l-2 border-slate-200 pl-4 dark:border-slate-700">
            <TextField id="org-oidc-issuer" type="url" label={t.oidcIssuer} value={values.auth_oidc_issuer_url} hint={t.oidcIssuerHint}
              onChange={(v) => set({ auth_oidc_issuer_url: v })} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField id="org-oidc-client-id" label={t.oidcClientId} value={values.auth_oidc_client_id} onChange={(v) => set({ auth_oidc_client_id: v })} />
              <div>
                <label htmlFor="org-oidc-client-secret" className={ui.label}>{t.oidcClientSecret}</label>
                <input id="org-oidc-client-secret" type="password" autoComplete="off" value={values.auth_oidc_client_secret}
                  aria-describedby="org-oidc-client-secret-hint" onChange={(e) => set({ auth_oidc_client_secret: e.target.value })}
                  className={`${ui.input} ${ui.inputBorder}`} />
                <p id="org-oidc-client-secret-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.oidcClientSecretHint}</p>
              </div>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField id="org-oidc-button-label" label={t.oidcButtonLabel} value={values.auth_oidc_button_label} hint={t.oidcButtonLabelHint}
                onChange={(v) => set({ auth_oidc_button_label: v })} />
              <TextField id="org-oidc-groups-claim" label={t.oidcGroupsClaim} value={values.auth_oidc_groups_claim}
                onChange={(v) => set({ auth_oidc_groups_claim: v })} />
            </div>
            <TextField id="org-oidc-group-mappings" label={t.oidcGroupMappings} value={mappings} multiline
              hint={mappingsValid ? t.oidcGroupMappingsHint : t.oidcGroupMappingsInvalid}
              onChange={(v) => {
                setMappings(v)
                const parsed = parseMappings(v)
                if (parsed) set({ auth_oidc_group_mappings: parsed })
              }} />
          </div>
        )}
        <Group legend={t.jwt}>
          <Check id="org-jwt-enabled" label={t.jwtEnabled} checked={values.auth_jwt_login_enabled} onChange={(c) => set({ auth_jwt_login_enabled: c })} />
          {values.auth_jwt_login_enabled && (
            <div className="mt-2 grid gap-4 border-l-2 border-slate-200 pl-4 sm:grid-cols-2 dark:border-slate-700">
              <TextField id="org-jwt-issuer" label={t.jwtIssuer} value={values.auth_jwt_auth_issuer} onChange={(v) => set({ auth_jwt_auth_issuer: v })} />
              <TextField id="org-jwt-audience" label={t.jwtAudience} value={values.auth_jwt_auth_audience} onChange={(v) => set({ auth_jwt_auth_audience: v })} />
              <TextField id="org-jwt-certs-url" type="url" label={t.jwtCertsUrl} value={values.auth_jwt_auth_public_certs_url}
                onChange={(v) => set({ auth_jwt_auth_public_certs_url: v })} />
              <TextField id="org-jwt-header" label={t.jwtHeader} value={values.auth_jwt_auth_header_name} hint={t.jwtHeaderHint}
                onChange={(v) => set({ auth_jwt_auth_header_name: v })} />
              <TextField id="org-jwt-cookie" label={t.jwtCookie} value={values.auth_jwt_auth_cookie_name} onChange={(v) => set({ auth_jwt_auth_cookie_name: v })} />
            </div>
          )}
        </Group>
      </Section>
      <Section id="org-settings-audit" title={t.auditLog}>
        <TextField id="org-audit-retention" label={t.retentionDays} value={retention}
          hint={retentionValid ? t.retentionDaysHint : t.retentionDaysInvalid}
          onChange={(v) => {
            setRetention(v)
            if (/^\d{1,5}$/.test(v.trim()) && Number(v) <= 36500) set({ audit_log_retention_days: Number(v) })
          }} />
      </Section>
    </>
  )
}
