import type { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'
import adminJobsPage from './admin/queries/jobs.tsx'
import adminOutdatedPage from './admin/queries/outdated.tsx'
import adminStatusPage from './admin/status.tsx'
import adminAuditPage from './admin/audit.tsx'
import adminSubscriptionsPage from './admin/subscriptions.tsx'
import alertPage from './alerts/[id].tsx'
import alertEditorPages from './alerts/editor.tsx'
import alertsPage from './alerts/index.tsx'
import adminApi from './api/admin.ts'
import alertsApi from './api/alerts.ts'
import auditApi from './api/audit.ts'
import importsApi from './api/imports.ts'
import adminImportPage from './admin/import.tsx'
import configApi from './api/config.ts'
import dashboardsApi from './api/dashboards.ts'
import dataSourceFilesApi from './api/data_source_files.ts'
import dataSourcesApi from './api/data_sources.ts'
import databricksApi from './api/databricks.ts'
import destinationsApi from './api/destinations.ts'
import eventsApi from './api/events.ts'
import contentApi from './api/content.ts'
import exportsApi from './api/exports.ts'
import groupsApi from './api/groups.ts'
import jobsApi from './api/jobs.ts'
import organizationApi from './api/organization.ts'
import queriesApi from './api/queries.ts'
import queryExecutionsApi from './api/query_executions.ts'
import queryResultsApi from './api/query_results.ts'
import querySnippetsApi from './api/query_snippets.ts'
import scimApi from './api/scim.ts'
import sessionApi from './api/session.ts'
import settingsApi from './api/settings.ts'
import subscriptionsApi from './api/subscriptions.ts'
import usersApi from './api/users.ts'
import visualizationsApi from './api/visualizations.ts'
import widgetsApi from './api/widgets.ts'
import avatar from './avatar.ts'
import dashboardPage from './dashboards/[id].tsx'
import dashboardsPages from './dashboards/index.tsx'
import dataSourcePage from './data_sources/[id].tsx'
import dataSourceFilesForms from './data_sources/[id]/files.tsx'
import dataSourcesPages from './data_sources/index.tsx'
import destinationPage from './destinations/[id].tsx'
import destinationsPages from './destinations/index.tsx'
import embedQueryPage from './embed/query.tsx'
import groupMembersPage from './groups/[id].tsx'
import groupDataSourcesPage from './groups/[id]/data_sources.tsx'
import groupsPage from './groups/index.tsx'
import forgot from './forgot.tsx'
import help from './help.tsx'
import home from './index.tsx'
import ldapLogin from './ldap-login.tsx'
import login from './login.tsx'
import logout from './logout.tsx'
import oidcLogin from './oidc-login.tsx'
import passwordLinks from './password-links.tsx'
import ping from './ping.ts'
import publicDashboardPage from './public/dashboards.tsx'
import queryPage from './queries/[id].tsx'
import queryEditorPages from './queries/editor.tsx'
import queriesPages from './queries/index.tsx'
import querySnippetsPages from './query_snippets/index.tsx'
import ready from './ready.ts'
import samlSignIn from './saml.tsx'
import reportImages from './reports/images.ts'
import settingsGeneralPage from './settings/general.tsx'
import setup from './setup.tsx'
import signInLink from './sign-in-link.tsx'
import status from './status.ts'
import profilePage from './users/[id].tsx'
import userSessionsForms from './users/sessions.tsx'
import usersPages from './users/index.tsx'
import verificationEmail from './verification_email.tsx'
import unsubscribe from './unsubscribe.tsx'
import verify from './verify.tsx'

/**
 * The route table: every file under routes/ and where it is mounted. Explicit imports (no file-system scan at
 * start), so Node, Deno and a bundle agree; a test checks that every route file is listed here.
 */
export const routes: [mountPath: string, app: Hono<Env>][] = [
  ['/api/admin', adminApi],
  ['/api/alerts', alertsApi],
  ['/api/config', configApi],
  ['/api/content', contentApi],
  ['/api/dashboards', dashboardsApi],
  ['/api/data_sources', dataSourcesApi],
  ['/api/data_sources', dataSourceFilesApi],
  ['/api/databricks', databricksApi],
  ['/api/destinations', destinationsApi],
  ['/api/events', eventsApi],
  ['/api', exportsApi],
  ['/api/groups', groupsApi],
  ['/api/jobs', jobsApi],
  ['/api/imports', importsApi],
  ['/api/organization', organizationApi],
  ['/api/queries', queriesApi],
  ['/api/queries', queryExecutionsApi],
  ['/api/query_results', queryResultsApi],
  ['/api/query_snippets', querySnippetsApi],
  ['/api/scim', scimApi],
  ['/api/session', sessionApi],
  ['/api/settings', settingsApi],
  ['/api/subscriptions', subscriptionsApi],
  ['/api/users', usersApi],
  ['/api/visualizations', visualizationsApi],
  ['/api/widgets', widgetsApi],
  ['/', auditApi],
  ['/', adminStatusPage],
  ['/', adminAuditPage],
  ['/', adminSubscriptionsPage],
  ['/', adminImportPage],
  ['/', adminJobsPage],
  ['/', adminOutdatedPage],
  ['/', alertsPage],
  ['/', alertEditorPages],
  ['/', alertPage],
  ['/', avatar],
  ['/', dashboardsPages],
  ['/', publicDashboardPage],
  ['/', dashboardPage],
  ['/', dataSourcesPages],
  ['/', dataSourcePage],
  ['/', dataSourceFilesForms],
  ['/', destinationsPages],
  ['/', destinationPage],
  ['/', embedQueryPage],
  ['/', groupsPage],
  ['/', groupMembersPage],
  ['/', groupDataSourcesPage],
  ['/', forgot],
  ['/', help],
  ['/', home],
  ['/', login],
  ['/', ldapLogin],
  ['/', logout],
  ['/', oidcLogin],
  ['/', passwordLinks],
  ['/', ping],
  ['/', queriesPages],
  ['/', queryEditorPages],
  ['/', queryPage],
  ['/', reportImages],
  ['/', unsubscribe],
  ['/', querySnippetsPages],
  ['/', ready],
  ['/', samlSignIn],
  ['/', settingsGeneralPage],
  ['/', setup],
  ['/', signInLink],
  ['/', status],
  ['/', usersPages],
  ['/', profilePage],
  ['/', userSessionsForms],
  ['/', verificationEmail],
  ['/', verify],
]
