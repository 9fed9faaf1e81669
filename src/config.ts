import path from 'node:path'
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './sign-in-limits.ts'
import { parseRange } from './validation/index.ts'

/** Which parts of Sightline this process runs. `all` is what `npm start` uses. */
export type ProcessRole = 'all' | 'web' | 'worker'
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/**
 * Everything Sightline reads from its environment, in one place (the README table mirrors it). One exception:
 * SIGHTLINE_ALLOW_PRIVATE_ADDRESSES is read by src/runners/address-guard.ts, where the worker applies it.
 */
export interface Config {
  port: number
  host: string
  databaseUrl: string | undefined
  dataDir: string
  secretKey: string | undefined
  baseUrl: string | undefined
  logLevel: LogLevel
  role: ProcessRole
  workerConcurrency: number
  /** Newest released version, when an operator or a release feed provides it (drives the update notice). */
  latestVersion: string | undefined
  allowParametersInEmbeds: boolean
  /** Rows kept of one result; the rest is cut off and the result marked truncated. */
  maxResultRows: number
  /** Bytes of one value's text; a longer value is cut to this size, ending with "…", and the result marked truncated. */
  maxCellBytes: number
  /** Bytes one result may take (a JSON source's answers included); more is refused. */
  maxResultBytes: number
  /** Days an unused result is kept (one no query shows as its latest). */
  resultRetentionDays: number
  /** Days the events browsers report (views, runs from a page) are kept; what Sightline records itself stays. */
  browserEventRetentionDays: number
  /** How long a run request waits for a fast execution to finish and answer with the result itself. */
  executionWaitMs: number
  /** Seconds without a heartbeat after which a worker counts as dead and its executions are recovered. */
  workerDeadAfterSeconds: number
  /** The first pause before a failed alert delivery is tried again; each next one is three times longer (decision 0022). */
  alertRetryBaseMs: number
  /** Bytes one request body may have; larger ones are refused with 413 before anything reads them. */
  maxBodyBytes: number
  /** The largest file an admin may upload to a Files source, or a Files source fetches from a URL. */
  maxUploadBytes: number
  /** Addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For names the caller. */
  trustedProxies: string[]
  /** How fast passwords may be guessed (not read from the environment: tests shorten them and move the clock). */
  signInLimits: SignInLimits
  /** The SMTP server mail goes through; undefined (mail not configured) unless both server and sender are set. */
  mail: MailSettings | undefined
  /** LDAP sign-in at /ldap/login; undefined (off) unless SIGHTLINE_LDAP_LOGIN_ENABLED is true. */
  ldap: LdapSettings | undefined
  /** Google sign-in at /oauth/google; undefined (off) unless SIGHTLINE_GOOGLE_CLIENT_ID and _SECRET are set. */
  google: GoogleSettings | undefined
  /** How long Sightline waits for an identity provider (discovery, keys, tokens) before telling the user it is down. */
  identityProviderTimeoutMs: number
  /**
   * The header a trusted proxy (SIGHTLINE_TRUSTED_PROXIES) names the signed-in user's e-mail in
   * (SIGHTLINE_REMOTE_USER_HEADER); undefined: off. Lower-case.
   */
  remoteUserHeader: string | undefined
}

/** Google sign-in: the OAuth client registered with Google, and the issuer (another in tests). */
export interface GoogleSettings {
  clientId: string
  clientSecret: string
  issuerUrl: string
}

/** LDAP sign-in, named as the established tool's LDAP_* settings. */
export interface LdapSettings {
  /** ldap:// or ldaps:// address of the directory. */
  url: string
  /** The connection is TLS from the first byte (ldaps://). */
  useSsl: boolean
  /** The connection starts plain and is upgraded with StartTLS before anything is sent. */
  startTls: boolean
  /** The service account that searches for the user; none: search anonymously. */
  bindDn: string | undefined
  bindPassword: string | undefined
  searchDn: string
  /** The search filter, `%(username)s` standing for the escaped user name. */
  searchTemplate: string
  displayNameKey: string
  emailKey: string
}

/** SMTP settings, named as the established tool's REDASH_MAIL_* settings. */
export interface MailSettings {
  server: string
  port: number
  /** STARTTLS is required (the connection starts plain and must be upgraded). */
  useTls: boolean
  /** The connection is TLS from the first byte (SMTPS, usually port 465). */
  useSsl: boolean
  username: string | undefined
  password: string | undefined
  /** The From address, e.g. `Sightline <sightline@example.com>`. */
  defaultSender: string
}

const roles: ProcessRole[] = ['all', 'web', 'worker']
const levels: LogLevel[] = ['debug', 'info', 'warn', 'error']

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const role = (env.SIGHTLINE_PROCESS ?? 'all') as ProcessRole
  if (!roles.includes(role)) throw new Error(`SIGHTLINE_PROCESS must be one of ${roles.join(', ')}`)
  const logLevel = (env.SIGHTLINE_LOG_LEVEL ?? 'info') as LogLevel
  if (!levels.includes(logLevel)) throw new Error(`SIGHTLINE_LOG_LEVEL must be one of ${levels.join(', ')}`)
  const port = Number(env.PORT ?? 5000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('PORT must be a port number')
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.SIGHTLINE_DATA_DIR ?? '.sightline'),
    secretKey: env.SIGHTLINE_SECRET_KEY || undefined,
    baseUrl: env.SIGHTLINE_BASE_URL?.replace(/\/+$/, '') || undefined,
    logLevel,
    role,
    workerConcurrency: Math.max(1, Number(env.SIGHTLINE_WORKER_CONCURRENCY ?? 4) || 4),
    latestVersion: env.SIGHTLINE_LATEST_VERSION || undefined,
    allowParametersInEmbeds: env.SIGHTLINE_ALLOW_PARAMETERS_IN_EMBEDS === 'true',
    maxResultRows: positiveInt(env, 'SIGHTLINE_MAX_RESULT_ROWS', 1_000_000),
    maxCellBytes: positiveInt(env, 'SIGHTLINE_MAX_CELL_BYTES', 1024 * 1024),
    maxResultBytes: positiveInt(env, 'SIGHTLINE_MAX_RESULT_BYTES', 104_857_600),
    resultRetentionDays: positiveInt(env, 'SIGHTLINE_RESULT_RETENTION_DAYS', 7),
    browserEventRetentionDays: positiveInt(env, 'SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS', 90),
    executionWaitMs: positiveInt(env, 'SIGHTLINE_EXECUTION_WAIT_MS', 500),
    workerDeadAfterSeconds: positiveInt(env, 'SIGHTLINE_WORKER_DEAD_AFTER_SECONDS', 30),
    alertRetryBaseMs: positiveInt(env, 'SIGHTLINE_ALERT_RETRY_BASE_MS', 10_000),
    maxBodyBytes: positiveInt(env, 'SIGHTLINE_MAX_BODY_BYTES', 1_048_576),
    maxUploadBytes: positiveInt(env, 'SIGHTLINE_MAX_UPLOAD_BYTES', 104_857_600),
    trustedProxies: addressRanges(env, 'SIGHTLINE_TRUSTED_PROXIES'),
    signInLimits: DEFAULT_SIGN_IN_LIMITS,
    mail: mailSettings(env),
    ldap: ldapSettings(env),
    google: googleSettings(env),
    identityProviderTimeoutMs: positiveInt(env, 'SIGHTLINE_IDENTITY_PROVIDER_TIMEOUT_MS', 10_000),
    remoteUserHeader: env.SIGHTLINE_REMOTE_USER_HEADER?.trim().toLowerCase() || undefined,
  }
}

function googleSettings(env: Record<string, string | undefined>): GoogleSettings | undefined {
  const clientId = env.SIGHTLINE_GOOGLE_CLIENT_ID?.trim()
  const clientSecret = env.SIGHTLINE_GOOGLE_CLIENT_SECRET?.trim()
  if (!clientId || !clientSecret) return undefined
  return { clientId, clientSecret, issuerUrl: env.SIGHTLINE_GOOGLE_ISSUER_URL?.trim() || 'https://accounts.google.com' }
}

function ldapSettings(env: Record<string, string | undefined>): LdapSettings | undefined {
  if (env.SIGHTLINE_LDAP_LOGIN_ENABLED !== 'true') return undefined
  const url = env.SIGHTLINE_LDAP_URL?.trim()
  if (!url || !/^ldaps?:\/\//i.test(url)) throw new Error('SIGHTLINE_LDAP_URL must be an ldap:// or ldaps:// address when LDAP login is enabled')
  const searchDn = env.SIGHTLINE_LDAP_SEARCH_DN?.trim()
  if (!searchDn) throw new Error('SIGHTLINE_LDAP_SEARCH_DN is required when LDAP login is enabled')
  const searchTemplate = env.SIGHTLINE_LDAP_SEARCH_TEMPLATE?.trim() || '(cn=%(username)s)'
  if (!searchTemplate.includes('%(username)s')) throw new Error('SIGHTLINE_LDAP_SEARCH_TEMPLATE must contain %(username)s')
  return {
    url,
    useSsl: env.SIGHTLINE_LDAP_USE_SSL === 'true' || /^ldaps:/i.test(url),
    startTls: env.SIGHTLINE_LDAP_STARTTLS === 'true',
    bindDn: env.SIGHTLINE_LDAP_BIND_DN || undefined,
    bindPassword: env.SIGHTLINE_LDAP_BIND_DN_PASSWORD || undefined,
    searchDn,
    searchTemplate,
    displayNameKey: env.SIGHTLINE_LDAP_DISPLAY_NAME_KEY?.trim() || 'displayName',
    emailKey: env.SIGHTLINE_LDAP_EMAIL_KEY?.trim() || 'mail',
  }
}

function mailSettings(env: Record<string, string | undefined>): MailSettings | undefined {
  const server = env.SIGHTLINE_MAIL_SERVER?.trim()
  const defaultSender = env.SIGHTLINE_MAIL_DEFAULT_SENDER?.trim()
  const useSsl = env.SIGHTLINE_MAIL_USE_SSL === 'true'
  // submission (587, STARTTLS) is today's usual port; SMTPS (465) when the connection is TLS from the start
  const port = env.SIGHTLINE_MAIL_PORT ? Number(env.SIGHTLINE_MAIL_PORT) : useSsl ? 465 : 587
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('SIGHTLINE_MAIL_PORT must be a port number')
  if (!server || !defaultSender) return undefined
  return {
    server, port, useSsl, useTls: env.SIGHTLINE_MAIL_USE_TLS === 'true',
    username: env.SIGHTLINE_MAIL_USERNAME || undefined, password: env.SIGHTLINE_MAIL_PASSWORD || undefined, defaultSender,
  }
}

function addressRanges(env: Record<string, string | undefined>, name: string): string[] {
  const list = (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  for (const range of list) {
    try {
      parseRange(range)
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`)
    }
  }
  return list
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0`)
  return n
}
