// Written by scripts/routes-manifest.ts from the files under routes/ (`npm run build`): do not edit by hand.
import type { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'
import index from './index.tsx'
import admin_audit from './admin/audit.tsx'
import admin_import from './admin/import.tsx'
import admin_queries_jobs from './admin/queries/jobs.tsx'
import admin_queries_outdated from './admin/queries/outdated.tsx'
import admin_status from './admin/status.tsx'
import admin_subscriptions from './admin/subscriptions.tsx'
import alerts_index from './alerts/index.tsx'
import alerts_editor from './alerts/editor.tsx'
import alerts_$id from './alerts/[id].tsx'
import api_admin from './api/admin.ts'
import api_alerts from './api/alerts.ts'
import api_audit from './api/audit.ts'
import api_audit_csv from './api/audit.csv.ts'
import api_config from './api/config.ts'
import api_content from './api/content.ts'
import api_dashboards from './api/dashboards.ts'
import api_dashboards_exports from './api/dashboards/exports.ts'
import api_data_sources from './api/data_sources.ts'
import api_data_sources_files from './api/data_sources/files.ts'
import api_databricks from './api/databricks.ts'
import api_destinations from './api/destinations.ts'
import api_events from './api/events.ts'
import api_groups from './api/groups.ts'
import api_imports from './api/imports.ts'
import api_jobs from './api/jobs.ts'
import api_organization from './api/organization.ts'
import api_queries from './api/queries.ts'
import api_queries_executions from './api/queries/executions.ts'
import api_query_results from './api/query_results.ts'
import api_query_snippets from './api/query_snippets.ts'
import api_scim from './api/scim.ts'
import api_session from './api/session.ts'
import api_settings from './api/settings.ts'
import api_subscriptions from './api/subscriptions.ts'
import api_users from './api/users.ts'
import api_visualizations from './api/visualizations.ts'
import api_visualizations_exports from './api/visualizations/exports.ts'
import api_widgets from './api/widgets.ts'
import avatar from './avatar.ts'
import dashboards_index from './dashboards/index.tsx'
import dashboards_$id from './dashboards/[id].tsx'
import data_sources_index from './data_sources/index.tsx'
import data_sources_$id from './data_sources/[id].tsx'
import data_sources_$id_files from './data_sources/[id]/files.tsx'
import destinations_index from './destinations/index.tsx'
import destinations_$id from './destinations/[id].tsx'
import embed_query from './embed/query.tsx'
import forgot from './forgot.tsx'
import groups_index from './groups/index.tsx'
import groups_$id from './groups/[id].tsx'
import groups_$id_data_sources from './groups/[id]/data_sources.tsx'
import help from './help.tsx'
import ldap_login from './ldap-login.tsx'
import login from './login.tsx'
import logout from './logout.tsx'
import oidc_login from './oidc-login.tsx'
import password_links from './password-links.tsx'
import ping from './ping.ts'
import public_dashboards from './public/dashboards.tsx'
import queries_index from './queries/index.tsx'
import queries_editor from './queries/editor.tsx'
import queries_$id from './queries/[id].tsx'
import query_snippets_index from './query_snippets/index.tsx'
import ready from './ready.ts'
import reports_images from './reports/images.ts'
import saml from './saml.tsx'
import settings_general from './settings/general.tsx'
import setup from './setup.tsx'
import sign_in_link from './sign-in-link.tsx'
import status from './status.ts'
import unsubscribe from './unsubscribe.tsx'
import users_index from './users/index.tsx'
import users_sessions from './users/sessions.tsx'
import users_$id from './users/[id].tsx'
import verification_email from './verification_email.tsx'
import verify from './verify.tsx'
import aliases from './_aliases.tsx'

/** Every route file and where it is mounted, in the order Hono must try them (scripts/routes-manifest.ts). */
export const routes: [mountPath: string, app: Hono<Env>][] = [
  ['/', index],
  ['/', admin_audit],
  ['/', admin_import],
  ['/', admin_queries_jobs],
  ['/', admin_queries_outdated],
  ['/', admin_status],
  ['/', admin_subscriptions],
  ['/', alerts_index],
  ['/', alerts_editor],
  ['/', alerts_$id],
  ['/api/admin', api_admin],
  ['/api/alerts', api_alerts],
  ['/api/audit', api_audit],
  ['/api/audit.csv', api_audit_csv],
  ['/api/config', api_config],
  ['/api/content', api_content],
  ['/api/dashboards', api_dashboards],
  ['/api/dashboards', api_dashboards_exports],
  ['/api/data_sources', api_data_sources],
  ['/api/data_sources', api_data_sources_files],
  ['/api/databricks', api_databricks],
  ['/api/destinations', api_destinations],
  ['/api/events', api_events],
  ['/api/groups', api_groups],
  ['/api/imports', api_imports],
  ['/api/jobs', api_jobs],
  ['/api/organization', api_organization],
  ['/api/queries', api_queries],
  ['/api/queries', api_queries_executions],
  ['/api/query_results', api_query_results],
  ['/api/query_snippets', api_query_snippets],
  ['/api/scim', api_scim],
  ['/api/session', api_session],
  ['/api/settings', api_settings],
  ['/api/subscriptions', api_subscriptions],
  ['/api/users', api_users],
  ['/api/visualizations', api_visualizations],
  ['/api/visualizations', api_visualizations_exports],
  ['/api/widgets', api_widgets],
  ['/', avatar],
  ['/', dashboards_index],
  ['/', dashboards_$id],
  ['/', data_sources_index],
  ['/', data_sources_$id],
  ['/', data_sources_$id_files],
  ['/', destinations_index],
  ['/', destinations_$id],
  ['/', embed_query],
  ['/', forgot],
  ['/', groups_index],
  ['/', groups_$id],
  ['/', groups_$id_data_sources],
  ['/', help],
  ['/', ldap_login],
  ['/', login],
  ['/', logout],
  ['/', oidc_login],
  ['/', password_links],
  ['/', ping],
  ['/', public_dashboards],
  ['/', queries_index],
  ['/', queries_editor],
  ['/', queries_$id],
  ['/', query_snippets_index],
  ['/', ready],
  ['/', reports_images],
  ['/', saml],
  ['/', settings_general],
  ['/', setup],
  ['/', sign_in_link],
  ['/', status],
  ['/', unsubscribe],
  ['/', users_index],
  ['/', users_sessions],
  ['/', users_$id],
  ['/', verification_email],
  ['/', verify],
  ['/', aliases],
]
