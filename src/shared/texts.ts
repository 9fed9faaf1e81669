import { adminTexts } from './admin-texts.ts'
import { monitoringTexts } from './monitoring-texts.ts'

/**
 * The message catalogue: every text a user reads, in one place. Strings the specification quotes are kept
 * character for character. English, with the Korean labels the spec asks for on dynamic date values.
 */
export const texts = {
  // the administration area's sections, kept in their own file
  ...adminTexts,
  product: 'Sightline',
  nav: {
    main: 'Main',
    dashboards: 'Dashboards',
    queries: 'Queries',
    alerts: 'Alerts',
    create: 'Create',
    newQuery: 'New Query',
    newDashboard: 'New Dashboard',
    newAlert: 'New Alert',
    help: 'Help',
    settings: 'Settings',
    profile: 'Profile',
    editProfile: 'Edit Profile',
    systemStatus: 'System Status',
    logout: 'Log out',
    version: (v: string) => `Version: ${v}`,
    updateAvailable: 'Update Available',
    menu: 'Menu',
    home: 'Home',
    account: 'Account',
    skipToContent: 'Skip to content',
  },
  settingsItems: {
    dataSources: 'Data Sources',
    users: 'Users',
    groups: 'Groups',
    destinations: 'Alert Destinations',
    general: 'General',
  },
  home: {
    welcome: 'Welcome...',
    tagline: 'Connect to any data source, easily visualize and share your data',
    connectDataSource: 'Connect a Data Source',
    askAdmin: 'Ask an account admin to connect a data source',
    createQuery: 'Create your first Query',
    createVisualization: 'Create your first Visualization',
    createDashboard: 'Create your first Dashboard',
    inviteUsers: 'Invite your Team Members',
    favoriteDashboards: 'Favorite Dashboards',
    favoriteQueries: 'Favorite Queries',
    favoriteDashboardsEmpty: 'Favorite Dashboards will appear here',
    favoriteQueriesEmpty: 'Favorite Queries will appear here',
    unpublished: 'Unpublished',
    deprecatedEmbed:
      'You have enabled parameters in embeds. This feature is deprecated and will be removed; embeds should use the safe query parameters instead.',
    emailNotVerified: 'We have sent an email with a confirmation link to your email address. Please follow the link to verify your email address.',
    resendEmail: 'Resend email',
    verificationSent: 'Please check your email inbox in order to verify your email address.',
  },
  beacon: {
    title: 'Would you be ok with sharing anonymous usage data with the Sightline team?',
    body: 'This helps us understand how Sightline is used, so we can make it better. You can change this at any time in the organization settings.',
    yes: 'Yes',
    no: 'No',
    thanks: 'Thank you',
    saved: 'Settings Saved.',
  },
  errors: {
    generic: 'It seems like we encountered an error. Try refreshing this page or contact your administrator.',
    notFound: "It seems like the page you're looking for cannot be found.",
    forbidden: 'It seems like you don’t have permission to see this page.',
    tooLarge: 'What you sent is too large for Sightline to accept. Please send less and try again.',
    goHome: 'Go to the home page',
    sessionExpired: 'Your session has expired. Please login to continue.',
    login: 'Login',
    connection: 'failed communicating with server. Please check your Internet connection and try again.',
    offline: 'Please check your Internet connection.',
    unknown: 'Unknown error occurred. Please try again later.',
  },
  help: {
    title: 'Help',
    close: 'Close',
    failed: 'Something went wrong.',
    clickHere: 'Click here',
    openInTab: 'to open the page in a new tab.',
    loading: 'Loading…',
  },
  settings: {
    saved: 'Settings changes saved.',
    failed: 'Failed saving changes.',
    passwordLoginTooltip: 'Password login can be disabled only if another login method is enabled.',
  },
  login: {
    title: 'Login to Sightline',
    email: 'Email',
    password: 'Password',
    remember: 'Remember me',
    submit: 'Log In',
    restored: 'You are signed in again. You can close this window.',
    ldapTitle: 'Login to Sightline with LDAP',
    ldapUsername: 'LDAP user name',
    ldapLink: 'Log in with LDAP',
    samlButton: 'SAML Login',
    samlFailedTitle: 'SAML sign-in failed',
    backToLogin: 'Back to the login page',
    passwordLink: 'Log in with a Sightline password',
  },
  logout: {
    title: 'Log out',
    question: (email: string) => `You are signed in as ${email}. Log out of Sightline?`,
    submit: 'Log out',
    cancel: 'Cancel',
  },
  setup: {
    title: 'Welcome to Sightline',
    intro: 'Before you can use your instance, you need to do a quick setup.',
    adminUser: 'Admin User',
    name: 'Name',
    email: 'Email Address',
    password: 'Password',
    passwordHint: 'At least 6 characters.',
    general: 'General',
    orgName: 'Organization Name',
    orgNameHint: 'Used in email notifications and the UI.',
    submit: 'Setup',
    required: 'This field is required.',
    tooShort: 'This field is too short.',
    invalidEmail: 'This field must be a valid email.',
  },
  settingsPage: {
    title: 'Settings',
  },
  toast: {
    close: 'Dismiss',
  },
  monitoring: monitoringTexts, // the admin monitoring pages (spec 3 §2)
  /** Lines a result's log gets when the server cut it (the editor's Log tab, `data.log` in the API). */
  resultCuts: {
    rowLimit: (limit: number) => `The result was cut at ${limit.toLocaleString('en-US')} rows, the most the server keeps of one result.`,
    sizeLimit: (rows: number, limit: number) =>
      `The result was cut after ${rows.toLocaleString('en-US')} rows, at ${byteSize(limit)}, the most the server keeps of one result.`,
    cellLimit: (limit: number) => `Values longer than ${byteSize(limit)} were cut to that size; each ends with "…".`,
    rowTooLarge: (rows: number) => `The result was cut after ${rows.toLocaleString('en-US')} rows: the next row was too large to read.`,
  },
  dynamicDates: {
    now: '지금',
    yesterday: '어제',
    last_week: '지난 주',
    last_month: '지난 달',
    last_year: '작년',
  },
  dynamicRanges: {
    today: '오늘',
    yesterday: '어제',
    this_week: '이번 주',
    this_month: '이번 달',
    this_year: '올해',
    last_week: '지난 주',
    last_month: '지난 달',
    last_year: '작년',
    last_hour: '지난 1시간',
    last_8_hours: '지난 8시간',
    last_24_hours: '지난 24시간',
    last_7_days: '지난 7일',
    last_14_days: '지난 14일',
    last_30_days: '지난 30일',
    last_60_days: '지난 60일',
    last_90_days: '지난 90일',
    last_12_months: '지난 12개월',
  },
} as const

/** A size as people read it: 1 MB, 64 KB, 1.5 MB (binary units, as the settings are usually given). */
function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`
  return bytes === 1 ? '1 byte' : `${bytes} bytes`
}
