import { z } from 'zod'
import type { Config } from '../config.ts'
import { isTimeZone } from '../shared/time-zone.ts'

export const DATE_FORMATS = ['DD/MM/YY', 'MM/DD/YY', 'YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY']
export const TIME_FORMATS = ['HH:mm', 'HH:mm:ss', 'HH:mm:ss.SSS']

/** Every organization setting (spec 3 §3), with the type a saved value must have. */
export const OrgSettingsSchema = z.strictObject({
  date_format: z.enum(DATE_FORMATS),
  time_format: z.enum(TIME_FORMATS),
  integer_format: z.string().max(50),
  float_format: z.string().max(50),
  thousands_separator: z.string().max(3),
  decimal_separator: z.string().max(3),
  null_value: z.string().max(50),
  hide_plotly_mode_bar: z.boolean(),
  feature_show_permissions_control: z.boolean(),
  send_email_on_failed_scheduled_queries: z.boolean(),
  multi_byte_search_enabled: z.boolean(),
  disable_public_urls: z.boolean(),
  /** Where links that leave the server point (src/settings/public-origin.ts); '' until an admin sets it. */
  base_url: z.string().max(2000),
  /** Seconds any query may run before it is stopped, on every source (0: no limit beyond the sources' own). */
  query_time_limit: z.number().int().min(0).max(7 * 86400),
  beacon_consent: z.boolean().nullable(),
  auth_password_login_enabled: z.boolean(),
  auth_google_apps_domains: z.array(z.string().trim().min(1).max(253)).max(100),
  auth_saml_enabled: z.boolean(),
  auth_saml_type: z.enum(['static', 'dynamic']),
  auth_saml_sso_url: z.string().max(2000),
  auth_saml_entity_id: z.string().max(2000),
  auth_saml_x509_cert: z.string().max(20000),
  auth_saml_metadata_url: z.string().max(2000),
  auth_saml_nameid_format: z.string().max(500),
  /** The SAML attribute whose values name the groups a user signing in belongs to (besides `default`). */
  auth_saml_groups_attribute: z.string().trim().max(500),
  /** Days the audit log keeps what Sightline recorded; 0 keeps it forever. */
  audit_log_retention_days: z.number().int().min(0).max(36500),
  /** Sign-in through any OpenID Connect provider (src/sign-in/oidc.ts); checked further in src/sign-in/oidc-settings.ts. */
  auth_oidc_enabled: z.boolean(),
  auth_oidc_issuer_url: z.string().trim().max(2000),
  auth_oidc_client_id: z.string().trim().max(500),
  /** Write-only: read back masked (src/orgs/settings.ts). */
  auth_oidc_client_secret: z.string().max(2000),
  auth_oidc_button_label: z.string().trim().max(100),
  auth_oidc_groups_claim: z.string().trim().min(1).max(200),
  /** A value of the groups claim → the name of the Sightline group it makes the user a member of. */
  auth_oidc_group_mappings: z.record(z.string().min(1).max(500), z.string().trim().min(1).max(200))
    .refine((m) => Object.keys(m).length <= 500, 'At most 500 group mappings.'),
  /** Sign-in by a signed JWT an access proxy adds to each request (src/sign-in/proxy-jwt.ts). */
  auth_jwt_login_enabled: z.boolean(),
  auth_jwt_auth_issuer: z.string().trim().max(2000),
  auth_jwt_auth_audience: z.string().trim().max(2000),
  auth_jwt_auth_public_certs_url: z.string().trim().max(2000),
  auth_jwt_auth_header_name: z.string().trim().max(200),
  auth_jwt_auth_cookie_name: z.string().trim().max(200),
  /** Where reports' schedules are read when their own names no zone (src/reports/schedule.ts). */
  time_zone: z.string().max(100).refine(isTimeZone, 'time_zone must be a time zone name such as UTC or Europe/Paris.'),
})

export type OrgSettings = z.infer<typeof OrgSettingsSchema>

export const DEFAULT_SETTINGS: OrgSettings = {
  date_format: 'DD/MM/YY',
  time_format: 'HH:mm',
  integer_format: '0,0',
  float_format: '0,0.00',
  thousands_separator: ',',
  decimal_separator: '.',
  null_value: 'null',
  hide_plotly_mode_bar: false,
  feature_show_permissions_control: false,
  send_email_on_failed_scheduled_queries: false,
  multi_byte_search_enabled: false,
  disable_public_urls: false,
  base_url: '',
  query_time_limit: 0,
  beacon_consent: null,
  auth_password_login_enabled: true,
  auth_google_apps_domains: [],
  auth_saml_enabled: false,
  auth_saml_type: 'static',
  auth_saml_sso_url: '',
  auth_saml_entity_id: '',
  auth_saml_x509_cert: '',
  auth_saml_metadata_url: '',
  auth_saml_nameid_format: '',
  auth_saml_groups_attribute: 'RedashGroups',
  audit_log_retention_days: 365,
  auth_oidc_enabled: false,
  auth_oidc_issuer_url: '',
  auth_oidc_client_id: '',
  auth_oidc_client_secret: '',
  auth_oidc_button_label: '',
  auth_oidc_groups_claim: 'groups',
  auth_oidc_group_mappings: {},
  auth_jwt_login_enabled: false,
  auth_jwt_auth_issuer: '',
  auth_jwt_auth_audience: '',
  auth_jwt_auth_public_certs_url: '',
  auth_jwt_auth_header_name: '',
  auth_jwt_auth_cookie_name: '',
  time_zone: 'UTC',
}

/** The login methods the operator switches on in the environment rather than in the settings. */
export type EnvironmentLoginMethods = Pick<Config, 'ldap'> & Partial<Pick<Config, 'google'>>

/** Whether sign-in through the organization's OpenID Connect provider is on and names a provider and a client. */
export function oidcLoginEnabled(settings: OrgSettings): boolean {
  return settings.auth_oidc_enabled && Boolean(settings.auth_oidc_issuer_url && settings.auth_oidc_client_id)
}

/**
 * Whether people can sign in some other way than with a password (spec 3 §5: only then may password login be
 * disabled): OpenID Connect or SAML switched on and configured in the settings, LDAP (SIGHTLINE_LDAP_LOGIN_ENABLED) or
 * Google (SIGHTLINE_GOOGLE_CLIENT_ID) in the environment.
 */
export function otherLoginMethodEnabled(settings: OrgSettings, environment: EnvironmentLoginMethods): boolean {
  return Boolean(environment.ldap) || Boolean(environment.google) || oidcLoginEnabled(settings) || samlConfigured(settings)
}

/**
 * SAML is on and has what it needs to send people to the provider: the sign-in address and certificate (static), or
 * the metadata address (dynamic).
 */
export function samlConfigured(s: OrgSettings): boolean {
  if (!s.auth_saml_enabled) return false
  if (s.auth_saml_type === 'dynamic') return Boolean(s.auth_saml_metadata_url.trim())
  return Boolean(s.auth_saml_sso_url.trim() && s.auth_saml_x509_cert.trim())
}

/**
 * Stored values over the defaults, with the password-login rule applied: with no other login method on, password
 * login is on whatever was saved (say, LDAP switched off in the environment after password login was disabled).
 */
export function effectiveSettings(stored: Record<string, unknown>, environment: EnvironmentLoginMethods): OrgSettings {
  const merged = { ...DEFAULT_SETTINGS } as Record<string, unknown>
  for (const key of Object.keys(DEFAULT_SETTINGS)) if (key in stored) merged[key] = stored[key]
  const settings = merged as OrgSettings
  if (!otherLoginMethodEnabled(settings, environment)) settings.auth_password_login_enabled = true
  return settings
}
