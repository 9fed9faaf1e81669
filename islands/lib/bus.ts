/** Islands talk through window events, so none of them imports another. */
export type ToastKind = 'success' | 'error' | 'info' | 'warning'

export interface ToastDetail {
  message: string
  kind: ToastKind
  /** A second line under the message. */
  description?: string
  /** Stays until closed (spec 2 §8: a conflicting save must not slip away unread). */
  persistent?: boolean
}

const TOAST = 'sightline:toast'
const SESSION_EXPIRED = 'sightline:session-expired'
const SESSION_RESTORED = 'sightline:session-restored'

export function toast(message: string, kind: ToastKind = 'success', more: Pick<ToastDetail, 'description' | 'persistent'> = {}) {
  window.dispatchEvent(new CustomEvent<ToastDetail>(TOAST, { detail: { message, kind, ...more } }))
}

export function onToast(handler: (detail: ToastDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<ToastDetail>).detail)
  window.addEventListener(TOAST, listener)
  return () => window.removeEventListener(TOAST, listener)
}

let restored: Promise<void> | undefined
let resolveRestored: (() => void) | undefined

/** Ask the session-expired modal to show; resolves when the user has signed in again. */
export function sessionExpired(): Promise<void> {
  if (!restored) {
    restored = new Promise<void>((resolve) => (resolveRestored = resolve))
    window.dispatchEvent(new CustomEvent(SESSION_EXPIRED))
  }
  return restored
}

export function onSessionExpired(handler: () => void): () => void {
  window.addEventListener(SESSION_EXPIRED, handler)
  return () => window.removeEventListener(SESSION_EXPIRED, handler)
}

/** Called by the modal once the login popup reports `session-restored`: waiting requests are retried. */
export function sessionRestored() {
  resolveRestored?.()
  restored = undefined
  resolveRestored = undefined
  window.dispatchEvent(new CustomEvent(SESSION_RESTORED))
}

/** What the dashboard's Refresh button and auto-refresh ask of its widgets: results no older than `maxAge` seconds. */
export interface DashboardRefreshDetail {
  maxAge: number
}

const DASHBOARD_REFRESH = 'sightline:dashboard-refresh'

/** Ask every widget of the dashboard to run its query again (0: now; the auto-refresh interval: share a recent run). */
export function refreshDashboard(maxAge: number) {
  window.dispatchEvent(new CustomEvent<DashboardRefreshDetail>(DASHBOARD_REFRESH, { detail: { maxAge } }))
}

export function onDashboardRefresh(handler: (detail: DashboardRefreshDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<DashboardRefreshDetail>).detail)
  window.addEventListener(DASHBOARD_REFRESH, listener)
  return () => window.removeEventListener(DASHBOARD_REFRESH, listener)
}

/**
 * The dashboard's parameter values in force (its address, else saved and query defaults), told to its widgets each
 * time they change: every widget whose run values differ from its last run's runs again, so only widgets mapped to
 * a changed parameter do. `maxAge` as for a refresh (-1: any stored result of the same text will do).
 */
export interface DashboardParametersDetail {
  state: import('../../src/shared/dashboard-parameters.ts').ParameterState
  maxAge: number
}

const DASHBOARD_PARAMETERS = 'sightline:dashboard-parameters'
const WIDGET_PARAMETERS_APPLY = 'sightline:widget-parameters-apply'

export function announceDashboardParameters(detail: DashboardParametersDetail) {
  window.dispatchEvent(new CustomEvent<DashboardParametersDetail>(DASHBOARD_PARAMETERS, { detail }))
}

export function onDashboardParameters(handler: (detail: DashboardParametersDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<DashboardParametersDetail>).detail)
  window.addEventListener(DASHBOARD_PARAMETERS, listener)
  return () => window.removeEventListener(DASHBOARD_PARAMETERS, listener)
}

/** A widget's own parameters applied on its card; the dashboard's address (which the parameters island keeps) takes them. */
export interface WidgetParametersApplyDetail {
  widgetId: number
  values: Record<string, unknown>
}

export function applyWidgetParameters(detail: WidgetParametersApplyDetail) {
  window.dispatchEvent(new CustomEvent<WidgetParametersApplyDetail>(WIDGET_PARAMETERS_APPLY, { detail }))
}

export function onApplyWidgetParameters(handler: (detail: WidgetParametersApplyDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<WidgetParametersApplyDetail>).detail)
  window.addEventListener(WIDGET_PARAMETERS_APPLY, listener)
  return () => window.removeEventListener(WIDGET_PARAMETERS_APPLY, listener)
}

/** A choice made in the dashboard's filters panel: every widget with one of those filters redraws with it. */
export interface DashboardFiltersDetail {
  selection: Record<string, unknown[]>
}

const DASHBOARD_FILTERS = 'sightline:dashboard-filters'

export function announceDashboardFilters(detail: DashboardFiltersDetail) {
  window.dispatchEvent(new CustomEvent<DashboardFiltersDetail>(DASHBOARD_FILTERS, { detail }))
}

export function onDashboardFilters(handler: (detail: DashboardFiltersDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<DashboardFiltersDetail>).detail)
  window.addEventListener(DASHBOARD_FILTERS, listener)
  return () => window.removeEventListener(DASHBOARD_FILTERS, listener)
}

/** A widget's result filters as its latest result defines them (after a run): the merged panel offers their values. */
export interface WidgetFiltersDetail {
  widgetId: number
  filters: import('../../src/visualizations/filters.ts').Filter[]
}

const WIDGET_FILTERS = 'sightline:widget-filters'

export function announceWidgetFilters(detail: WidgetFiltersDetail) {
  window.dispatchEvent(new CustomEvent<WidgetFiltersDetail>(WIDGET_FILTERS, { detail }))
}

export function onWidgetFilters(handler: (detail: WidgetFiltersDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<WidgetFiltersDetail>).detail)
  window.addEventListener(WIDGET_FILTERS, listener)
  return () => window.removeEventListener(WIDGET_FILTERS, listener)
}

/**
 * The dashboard's filters merged into one panel, or each on its card (its dashboard_filters_enabled), as changed in
 * edit mode: the panel and the widgets follow at once, without a reload. The latest value is kept for the islands
 * that hydrate afterwards (a widget below the fold), whose server-drawn props still carry the page's first value.
 */
const FILTERS_MERGED = 'sightline:dashboard-filters-merged'
let filtersMergedNow: boolean | undefined

export function announceFiltersMerged(merged: boolean) {
  filtersMergedNow = merged
  window.dispatchEvent(new CustomEvent<boolean>(FILTERS_MERGED, { detail: merged }))
}

/** Whether the filters are merged now: the latest announcement's, else the page's own value. */
export const filtersMergedNowOr = (pageValue: boolean) => filtersMergedNow ?? pageValue

export function onFiltersMerged(handler: (merged: boolean) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<boolean>).detail)
  window.addEventListener(FILTERS_MERGED, listener)
  return () => window.removeEventListener(FILTERS_MERGED, listener)
}
