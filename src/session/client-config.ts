import type { Config } from '../config.ts'
import type { OrgSettings } from '../settings/index.ts'
import { DATE_FORMATS, TIME_FORMATS, samlConfigured, oidcLoginEnabled } from '../settings/index.ts'
import type { Principal } from '../permissions/index.ts'
import { isAdmin } from '../permissions/index.ts'
import { isNewer, VERSION } from '../version.ts'

export const DASHBOARD_REFRESH_INTERVALS = [60, 300, 600, 1800, 3600, 43200, 86400]
export const QUERY_REFRESH_INTERVALS = [60, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 18000, 21600, 25200, 28800,
  32400, 36000, 39600, 43200, 86400, 604800, 1209600, 2592000]

/** The client configuration (spec 1 §3, reference §9.3). Version fields only for signed-in users. */
export function clientConfig(config: Config, settings: OrgSettings, principal?: Principal) {
  const base = {
    allowScriptsInUserInput: false,
    showPermissionsControl: settings.feature_show_permissions_control,
    hidePlotlyModeBar: settings.hide_plotly_mode_bar,
    disablePublicUrls: settings.disable_public_urls,
    multiByteSearchEnabled: settings.multi_byte_search_enabled,
    allowCustomJSVisualizations: false,
    autoPublishNamedQueries: true,
    extendedAlertOptions: false,
    mailSettingsMissing: !config.mail,
    dashboardRefreshIntervals: DASHBOARD_REFRESH_INTERVALS,
    queryRefreshIntervals: QUERY_REFRESH_INTERVALS,
    googleLoginEnabled: Boolean(config.google),
    ldapLoginEnabled: Boolean(config.ldap),
    samlLoginEnabled: samlConfigured(settings),
    oidcLoginEnabled: oidcLoginEnabled(settings),
    /** The OpenID Connect button's text ('' for the default). */
    oidcButtonLabel: settings.auth_oidc_button_label,
    pageSize: 20,
    pageSizeOptions: [5, 10, 20, 50, 100],
    tableCellMaxJSONSize: 50000,
    basePath: (config.baseUrl ?? '') + '/',
    dateFormat: settings.date_format,
    dateFormatList: DATE_FORMATS,
    timeFormatList: TIME_FORMATS,
    dateTimeFormat: `${settings.date_format} ${settings.time_format}`,
    integerFormat: settings.integer_format,
    floatFormat: settings.float_format,
    thousandsSeparator: settings.thousands_separator,
    decimalSeparator: settings.decimal_separator,
    nullValue: settings.null_value,
    showBeaconConsentMessage: isAdmin(principal) && settings.beacon_consent === null,
  }
  if (!principal) return base
  return { ...base, version: VERSION, newVersionAvailable: isNewer(config.latestVersion) }
}

export type ClientConfig = ReturnType<typeof clientConfig>

/** Session messages the home page reacts to (spec 1 §2). */
export function sessionMessages(config: Config, principal: Principal): string[] {
  const messages: string[] = []
  if (!principal.isEmailVerified) messages.push('email-not-verified')
  if (config.allowParametersInEmbeds) messages.push('using-deprecated-embed-feature')
  return messages
}
