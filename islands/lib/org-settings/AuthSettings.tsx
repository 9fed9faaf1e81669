import type { JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { ui } from '../ui.ts'
import { Check, Group, Section, TextField, Warning, type OrgSettingsValues } from './fields.tsx'

const t = texts.orgSettings
const TOOLTIP_ID = 'org-password-login-reason'

/**
 * Password login, Google domains and SAML (spec 3 §3). Password login can be switched off only while another login
 * method is on (spec 3 §5); the server refuses otherwise, so the checkbox says why it cannot be changed.
 */
export function AuthSettings({ values, savedPasswordLogin, otherLoginMethod, domains, set, setDomains }: {
  values: OrgSettingsValues
  /** The saved value, not the edited one: the banner tells how people sign in now. */
  savedPasswordLogin: boolean
  otherLoginMethod: boolean
  domains: string
  set: (change: Partial<OrgSettingsValues>) => void
  setDomains: (text: string) => void
}): JSX.Element {
  const locked = !otherLoginMethod
  return (
    <Section id="org-settings-auth" title={t.authentication}>
      {!savedPasswordLogin && <Warning>{t.passwordLoginDisabled}</Warning>}
      <div className="group relative flex flex-col gap-1 sm:w-fit sm:flex-row sm:items-center">
        <Check id="org-password-login" label={t.passwordLogin} checked={values.auth_password_login_enabled || locked}
          disabled={locked} describedBy={locked ? TOOLTIP_ID : undefined}
          onChange={(checked) => set({ auth_password_login_enabled: checked })} />
        {locked && (
          // A tooltip on hover or focus where there is a pointer; on a phone, where nothing hovers, a hint below.
          <span id={TOOLTIP_ID} role="tooltip"
            className="text-xs text-slate-500 sm:invisible sm:absolute sm:top-1/2 sm:left-full sm:z-10 sm:ml-3 sm:w-72 sm:-translate-y-1/2 sm:rounded-md sm:bg-slate-900 sm:px-2.5 sm:py-1.5 sm:text-white sm:opacity-0 sm:shadow-lg sm:transition-opacity sm:group-focus-within:visible sm:group-focus-within:opacity-100 sm:group-hover:visible sm:group-hover:opacity-100 dark:text-slate-400 sm:dark:bg-slate-700 sm:dark:text-white">
            {texts.settings.passwordLoginTooltip}
          </span>
        )}
      </div>
      <p className="text-sm text-slate-500 dark:text-slate-400">{t.otherMethodsUnused}</p>
      <Group legend={t.googleLogin}>
        <TextField id="org-google-domains" label={t.googleDomains} value={domains} onChange={setDomains} hint={t.googleDomainsHint} />
      </Group>
      <Group legend={t.saml}>
        <Check id="org-saml-enabled" label={t.samlEnabled} checked={values.auth_saml_enabled}
          onChange={(checked) => set({ auth_saml_enabled: checked })} />
        {values.auth_saml_enabled && (
          <div className="mt-2 flex flex-col gap-4 border-l-2 border-slate-200 pl-4 dark:border-slate-700">
            <fieldset className="flex flex-col gap-1">
              <legend className={ui.label}>{t.samlType}</legend>
              {(['static', 'dynamic'] as const).map((type) => (
                <label key={type} htmlFor={`org-saml-type-${type}`} className="flex cursor-pointer items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
                  <input id={`org-saml-type-${type}`} type="radio" name="auth_saml_type" value={type} checked={values.auth_saml_type === type}
                    onChange={() => set({ auth_saml_type: type })} className="h-4 w-4 accent-indigo-600" />
                  {type === 'static' ? t.samlStatic : t.samlDynamic}
                </label>
              ))}
            </fieldset>
            {values.auth_saml_type === 'dynamic'
              ? <TextField id="org-saml-metadata-url" label={t.samlMetadataUrl} value={values.auth_saml_metadata_url} onChange={(v) => set({ auth_saml_metadata_url: v })} />
              : <TextField id="org-saml-sso-url" label={t.samlSsoUrl} value={values.auth_saml_sso_url} onChange={(v) => set({ auth_saml_sso_url: v })} />}
            <TextField id="org-saml-entity-id" label={t.samlEntityId} value={values.auth_saml_entity_id} onChange={(v) => set({ auth_saml_entity_id: v })} />
            {values.auth_saml_type === 'static' && (
              <TextField id="org-saml-x509-cert" label={t.samlX509Cert} value={values.auth_saml_x509_cert} multiline onChange={(v) => set({ auth_saml_x509_cert: v })} />
            )}
            <TextField id="org-saml-nameid-format" label={t.samlNameIdFormat} value={values.auth_saml_nameid_format} onChange={(v) => set({ auth_saml_nameid_format: v })} />
            <TextField id="org-saml-groups-attribute" label={t.samlGroupsAttribute} value={values.auth_saml_groups_attribute}
              hint={t.samlGroupsAttributeHint} onChange={(v) => set({ auth_saml_groups_attribute: v })} />
            {values.base_url && <p className="text-sm text-slate-500 dark:text-slate-400">{t.samlSpAddresses(values.base_url)}</p>}
          </div>
        )}
      </Group>
    </Section>
  )
}
