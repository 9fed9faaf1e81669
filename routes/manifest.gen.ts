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
import alerts_new from './alerts/new.tsx'
import alerts_$id from './alerts/[id].tsx'
import alerts_$id_edit from './alerts/[id]/edit.tsx'
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
import avatar_$file from './avatar/[file].ts'
import dashboards_index from './dashboards/index.tsx'
import dashboards_favorites from './dashboards/favorites.tsx'
import dashboards_my from './dashboards/my.tsx'
import dashboards_new from './dashboards/new.tsx'
import dashboards_$address from './dashboards/[address].tsx'
import data_sources_index from './data_sources/index.tsx'
import data_sources_new from './data_sources/new.tsx'
import data_sources_$id from './data_sources/[id].tsx'
import data_sources_$id_files from './data_sources/[id]/files.tsx'
import data_sources_$id_files_$table_delete from './data_sources/[id]/files/[table]/delete.tsx'
import destinations_index from './destinations/index.tsx'
import destinations_new from './destinations/new.tsx'
import destinations_$id from './destinations/[id].tsx'
import embed_query_$id_visualization_$vid from './embed/query/[id]/visualization/[vid].tsx'
import forgot from './forgot.tsx'
import groups_index from './groups/index.tsx'
import groups_$id from './groups/[id].tsx'
import groups_$id_data_sources from './groups/[id]/data_sources.tsx'
import help from './help.tsx'
import invite_$token from './invite/[token].tsx'
import ldap_login from './ldap/login.tsx'
import login from './login.tsx'
import login_restored from './login/restored.tsx'
import logout from './logout.tsx'
import oauth_google from './oauth/google.tsx'
import oauth_google_callback from './oauth/google_callback.tsx'
import oidc_callback from './oidc/callback.tsx'
import oidc_login from './oidc/login.tsx'
import ping from './ping.ts'
import public_dashboards_$token from './public/dashboards/[token].tsx'
import queries_index from './queries/index.tsx'
import queries_archive from './queries/archive.tsx'
import queries_favorites from './queries/favorites.tsx'
import queries_my from './queries/my.tsx'
import queries_new from './queries/new.tsx'
import queries_$id from './queries/[id].tsx'
import queries_$id_source from './queries/[id]/source.tsx'
import query_snippets_index from './query_snippets/index.tsx'
import query_snippets_new from './query_snippets/new.tsx'
import query_snippets_$id from './query_snippets/[id].tsx'
import ready from './ready.ts'
import reports_images_$token from './reports/images/[token].ts'
import reset_$token from './reset/[token].tsx'
import saml_callback from './saml/callback.tsx'
import saml_login from './saml/login.tsx'
import saml_metadata from './saml/metadata.tsx'
import settings_general from './settings/general.tsx'
import setup from './setup.tsx'
import sign_in_link_$token from './sign-in-link/[token].tsx'
import status_json from './status.json.ts'
import unsubscribe_$token from './unsubscribe/[token].tsx'
import users_index from './users/index.tsx'
import users_disabled from './users/disabled.tsx'
import users_me from './users/me.tsx'
import users_new from './users/new.tsx'
import users_pending from './users/pending.tsx'
import users_$id from './users/[id].tsx'
import users_$id_sessions_end from './users/[id]/sessions/end.tsx'
import users_$id_sessions_$sid_end from './users/[id]/sessions/[sid]/end.tsx'
import verify_$token from './verify/[token].tsx'
import aliases from './_aliases.tsx'

/** Every route file and where it is mounted, in the order Hono must try them (scripts/routes-manifest.ts). */
export const routes: [mountPath: string, app: Hono<Env>][] = [
  ['/', index],
  ['/admin/audit', admin_audit],
  ['/admin/import', admin_import],
  ['/admin/queries/jobs', admin_queries_jobs],
  ['/admin/queries/outdated', admin_queries_outdated],
  ['/admin/status', admin_status],
  ['/admin/subscriptions', admin_subscriptions],
  ['/alerts', alerts_index],
  ['/alerts/new', alerts_new],
  ['/alerts/:id{[0-9]+}', alerts_$id],
  ['/alerts/:id{[0-9]+}/edit', alerts_$id_edit],
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
  ['/avatar/:file', avatar_$file],
  ['/dashboards', dashboards_index],
  ['/dashboards/favorites', dashboards_favorites],
  ['/dashboards/my', dashboards_my],
  ['/dashboards/new', dashboards_new],
  ['/dashboards/:address{[0-9]+(?:-[^/]*)?}', dashboards_$address],
  ['/data_sources', data_sources_index],
  ['/data_sources/new', data_sources_new],
  ['/data_sources/:id{[0-9]+}', data_sources_$id],
  ['/data_sources/:id{[0-9]+}/files', data_sources_$id_files],
  ['/data_sources/:id{[0-9]+}/files/:table/delete', data_sources_$id_files_$table_delete],
  ['/destinations', destinations_index],
  ['/destinations/new', destinations_new],
  ['/destinations/:id{[0-9]+}', destinations_$id],
  ['/embed/query/:id{[0-9]+}/visualization/:vid{[0-9]+}', embed_query_$id_visualization_$vid],
  ['/forgot', forgot],
  ['/groups', groups_index],
  ['/groups/:id{[0-9]+}', groups_$id],
  ['/groups/:id{[0-9]+}/data_sources', groups_$id_data_sources],
  ['/help', help],
  ['/invite/:token', invite_$token],
  ['/ldap/login', ldap_login],
  ['/login', login],
  ['/login/restored', login_restored],
  ['/logout', logout],
  ['/oauth/google', oauth_google],
  ['/oauth/google_callback', oauth_google_callback],
  ['/oidc/callback', oidc_callback],
  ['/oidc/login', oidc_login],
  ['/ping', ping],
  ['/public/dashboards/:token', public_dashboards_$token],
  ['/queries', queries_index],
  ['/queries/archive', queries_archive],
  ['/queries/favorites', queries_favorites],
  ['/queries/my', queries_my],
  ['/queries/new', queries_new],
  ['/queries/:id{[0-9]+}', queries_$id],
  ['/queries/:id{[0-9]+}/source', queries_$id_source],
  ['/query_snippets', query_snippets_index],
  ['/query_snippets/new', query_snippets_new],
  ['/query_snippets/:id{[0-9]+}', query_snippets_$id],
  ['/ready', ready],
  ['/reports/images/:token', reports_images_$token],
  ['/reset/:token', reset_$token],
  ['/saml/callback', saml_callback],
  ['/saml/login', saml_login],
  ['/saml/metadata', saml_metadata],
  ['/settings/general', settings_general],
  ['/setup', setup],
  ['/sign-in-link/:token', sign_in_link_$token],
  ['/status.json', status_json],
  ['/unsubscribe/:token', unsubscribe_$token],
  ['/users', users_index],
  ['/users/disabled', users_disabled],
  ['/users/me', users_me],
  ['/users/new', users_new],
  ['/users/pending', users_pending],
  ['/users/:id{[0-9]+}', users_$id],
  ['/users/:id{[0-9]+}/sessions/end', users_$id_sessions_end],
  ['/users/:id{[0-9]+}/sessions/:sid{[0-9]+}/end', users_$id_sessions_$sid_end],
  ['/verify/:token', verify_$token],
  ['/', aliases],
]
