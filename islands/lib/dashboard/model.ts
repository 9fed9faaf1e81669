/**
 * The dashboard page's header as a pure model (spec 2 §2, §8): the dashboard as the header knows it, edit mode and
 * fullscreen (kept in the address), which dialog is open, the public address, and what each change, archive,
 * favourite and fork sends and how a refusal is told. Side effects are commands the component carries out, with async
 * functions given the `api` to call. Tested without React.
 */
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import { only, type Step } from '../use-model.ts'
import { headerFields, type HeaderDashboard } from './types.ts'

const t = dashboardTexts.header

export type DashboardChanges = Partial<Pick<HeaderDashboard, 'name' | 'tags' | 'is_draft' | 'is_archived' | 'dashboard_filters_enabled'>>
  // the whole options (the API replaces them): saved dashboard parameter values and their order
  & { options?: Record<string, unknown> }

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
export type HeaderDialog = 'tags' | 'archive' | 'permissions' | 'share'
/** Told whether a change was saved: a dialog closes, or edit mode moves on, only then. */
export type Settle = (saved: boolean) => void
export type ForkedCopy = { id: number; slug: string; skipped_widgets?: number }

export interface HeaderState {
  /** Each change is sent with its `version`, the latest answer's, so one made meanwhile by someone else is refused (409). */
  dashboard: HeaderDashboard
  editing: boolean
  fullscreen: boolean
  dialog: HeaderDialog | null
  /** The dashboard's public address while it is shared, else null. */
  publicUrl: string | null
}

export function initialHeader(dashboard: HeaderDashboard, flags: { edit: boolean; fullscreen: boolean }, publicUrl: string | null): HeaderState {
  return { dashboard, editing: flags.edit, fullscreen: flags.fullscreen, dialog: null, publicUrl }
}

/** Only its editors change a dashboard, and nobody an archived one (it may be unarchived). */
export const isEditable = (d: HeaderDashboard) => d.can_edit && !d.is_archived

export type MenuAction = 'edit' | 'permissions' | 'unpublish' | 'fork' | 'exportPdf' | 'exportPng' | 'archive'

/** The More menu's entries, in order; the exports are always offered. */
export function menuActions(d: HeaderDashboard, rights: { mayManagePermissions: boolean; mayFork: boolean }): MenuAction[] {
  const editable = isEditable(d)
  const actions: MenuAction[] = []
  if (editable) actions.push('edit')
  if (rights.mayManagePermissions && !d.is_archived) actions.push('permissions')
  if (editable && !d.is_draft) actions.push('unpublish')
  if (rights.mayFork) actions.push('fork')
  actions.push('exportPdf', 'exportPng')
  if (editable) actions.push('archive')
  return actions
}

export type HeaderEvent =
  | { type: 'edit'; on: boolean }
  | { type: 'toggleFullscreen' }
  | { type: 'openDialog'; dialog: HeaderDialog }
  | { type: 'closeDialog' }
  | { type: 'shared'; publicUrl: string | null }
  | { type: 'change'; changes: DashboardChanges; settle?: Settle }
  | { type: 'archive'; settle?: Settle }
  | { type: 'answered'; dashboard: HeaderDashboard }
  /** A change or archive was refused: the answer's status (0 for no answer) and the server's own words, if any. */
  | { type: 'refused'; status: number; reason: string }
  | { type: 'favorite'; on: boolean }
  | { type: 'favoriteFailed'; on: boolean }
  | { type: 'fork' }
  | { type: 'forked'; copy: ForkedCopy }
  | { type: 'forkFailed' }

export type ToastCommand = { kind: 'toast'; message: string; description?: string; persistent?: boolean }

export type HeaderCommand =
  | { kind: 'address'; flag: 'edit' | 'fullscreen'; on: boolean }
  | { kind: 'change'; method: 'POST' | 'DELETE'; path: string; body?: unknown; settle?: Settle }
  | { kind: 'favorite'; method: 'POST' | 'DELETE'; path: string; on: boolean }
  | { kind: 'fork'; path: string }
  | ToastCommand
  /** The copy's page says how many charts were left out (a toast would vanish with this page). */
  | { kind: 'flashForkSkipped'; count: number; path: string }
  | { kind: 'open'; path: string }

/** A refused change, told as spec 2 §8 words it; a conflict stays on screen until closed. */
export function refusalToast(status: number, reason: string): ToastCommand {
  if (status === 403) return { kind: 'toast', message: t.updateFailed, description: t.permissionDenied }
  if (status === 409) return { kind: 'toast', message: t.conflict, description: t.conflictHint, persistent: true }
  return { kind: 'toast', message: t.updateFailed, description: reason || undefined }
}

export function reduceHeader(state: HeaderState, event: HeaderEvent): Step<HeaderState, HeaderCommand> {
  const path = `/api/dashboards/${state.dashboard.id}`
  switch (event.type) {
    case 'edit':
      return { state: { ...state, editing: event.on }, commands: [{ kind: 'address', flag: 'edit', on: event.on }] }
    case 'toggleFullscreen':
      return { state: { ...state, fullscreen: !state.fullscreen }, commands: [{ kind: 'address', flag: 'fullscreen', on: !state.fullscreen }] }
    case 'openDialog':
      return only({ ...state, dialog: event.dialog })
    case 'closeDialog':
      return only({ ...state, dialog: null })
    case 'shared':
      return only({ ...state, publicUrl: event.publicUrl })
    case 'change':
      return { state, commands: [{ kind: 'change', method: 'POST', path, body: { ...event.changes, version: state.dashboard.version }, settle: event.settle }] }
    case 'archive':
      return { state, commands: [{ kind: 'change', method: 'DELETE', path, settle: event.settle }] }
    case 'answered':
      return only({ ...state, dashboard: headerFields(event.dashboard) })
    case 'refused':
      return { state, commands: [refusalToast(event.status, event.reason)] }
    case 'favorite':
      // shown at once; put back if the server refuses
      return {
        state: { ...state, dashboard: { ...state.dashboard, is_favorite: event.on } },
        commands: [{ kind: 'favorite', method: event.on ? 'POST' : 'DELETE', path: `${path}/favorite`, on: event.on }],
      }
    case 'favoriteFailed':
      return { state: { ...state, dashboard: { ...state.dashboard, is_favorite: !event.on } }, commands: [{ kind: 'toast', message: t.favoriteFailed }] }
    case 'fork':
      return { state, commands: [{ kind: 'fork', path: `${path}/fork` }] }
    case 'forked': {
      const copy = `/dashboards/${event.copy.id}-${event.copy.slug}`
      const flash: HeaderCommand[] = event.copy.skipped_widgets ? [{ kind: 'flashForkSkipped', count: event.copy.skipped_widgets, path: copy }] : []
      return { state, commands: [...flash, { kind: 'open', path: copy }] }
    }
    case 'forkFailed':
      return { state, commands: [{ kind: 'toast', message: t.forkFailed }] }
  }
}

/** Sends a change or an archive; `failureOf` reads a refusal's status and the server's words. */
export async function sendChange(call: Api, method: 'POST' | 'DELETE', path: string, body: unknown,
  failureOf: (error: unknown) => { status: number; reason: string }): Promise<HeaderEvent> {
  try {
    return { type: 'answered', dashboard: await call<HeaderDashboard>(method, path, body) }
  } catch (error) {
    return { type: 'refused', ...failureOf(error) }
  }
}

export async function sendFavorite(call: Api, method: 'POST' | 'DELETE', path: string, on: boolean): Promise<HeaderEvent | null> {
  try {
    await call(method, path)
    return null
  } catch {
    return { type: 'favoriteFailed', on }
  }
}

export async function forkDashboard(call: Api, path: string): Promise<HeaderEvent> {
  try {
    return { type: 'forked', copy: await call<ForkedCopy>('POST', path) }
  } catch {
    return { type: 'forkFailed' }
  }
}
