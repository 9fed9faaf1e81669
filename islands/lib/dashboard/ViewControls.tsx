import type { JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import { shareTexts } from '../../../src/shared/share-texts.ts'
import { MoreMenu, type MenuItem } from '../query-page/MoreMenu.tsx'
import { ui } from '../ui.ts'
import { isEditable, menuActions, type DashboardChanges, type HeaderEvent, type HeaderState, type MenuAction } from './model.ts'
import { RefreshControl } from './RefreshControl.tsx'

const t = dashboardTexts.header

/** The header's controls in view mode: Unarchive, Publish, Refresh, Share, fullscreen, favourite and the More menu. */
export function ViewControls({ state, rights, refreshIntervals, refresh, shareable, update, dispatch }: {
  state: HeaderState
  rights: { mayManagePermissions: boolean; mayFork: boolean }
  refreshIntervals: number[]
  refresh: number | null
  /** Share Dashboard is offered to this caller. */
  shareable: boolean
  update: (changes: DashboardChanges) => Promise<boolean>
  dispatch: (event: HeaderEvent) => void
}): JSX.Element {
  const { dashboard: d, fullscreen, publicUrl } = state
  // exports drawn by the server with the address's parameter values and filters, as the page shows them
  const search = typeof window === 'undefined' ? '' : window.location.search
  const entries: Record<MenuAction, MenuItem> = {
    edit: { label: t.edit, onSelect: () => dispatch({ type: 'edit', on: true }) },
    permissions: { label: t.managePermissions, onSelect: () => dispatch({ type: 'openDialog', dialog: 'permissions' }) },
    unpublish: { label: t.unpublish, onSelect: () => void update({ is_draft: true }) },
    fork: { label: t.fork, onSelect: () => dispatch({ type: 'fork' }) },
    exportPdf: { label: t.exportPdf, href: `/api/dashboards/${d.id}/export.pdf${search}`, onSelect: () => undefined },
    exportPng: { label: t.exportPng, href: `/api/dashboards/${d.id}/export.png${search}`, onSelect: () => undefined },
    archive: { label: t.archive, danger: true, onSelect: () => dispatch({ type: 'openDialog', dialog: 'archive' }) },
  }
  const items = menuActions(d, rights).map((action) => entries[action])
  return (
    <>
      {d.is_archived && d.can_edit && <button type="button" className={ui.primaryButton} onClick={() => void update({ is_archived: false })}>{t.unarchive}</button>}
      {isEditable(d) && d.is_draft && <button type="button" className={ui.primaryButton} onClick={() => void update({ is_draft: false })}>{t.publish}</button>}
      <RefreshControl intervals={refreshIntervals} initial={refresh} />
      {/* spec 2 §6: a published dashboard, or one already shared */}
      {shareable && !d.is_archived && (!d.is_draft || publicUrl) && (
        <button type="button" className={ui.secondaryButton} data-share-button aria-pressed={publicUrl !== null} onClick={() => dispatch({ type: 'openDialog', dialog: 'share' })}>{shareTexts.share}</button>
      )}
      {!d.is_draft && (
        <button type="button" className={`${ui.secondaryButton} px-2.5`} aria-label={t.fullscreen} aria-pressed={fullscreen} onClick={() => dispatch({ type: 'toggleFullscreen' })}>
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
            <path d={fullscreen ? 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5' : 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5'} />
          </svg>
        </button>
      )}
      <button type="button" className={`${ui.secondaryButton} px-2.5`} aria-label={t.favorite} aria-pressed={d.is_favorite}
        onClick={() => dispatch({ type: 'favorite', on: !d.is_favorite })}>
        <svg viewBox="0 0 24 24" className={`h-4 w-4 ${d.is_favorite ? 'fill-amber-400 text-amber-500' : 'fill-none'}`} stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden="true">
          <path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1 6.2-5.5-2.9-5.5 2.9 1-6.2L3 9.6l6.2-.9z" />
        </svg>
      </button>
      {items.length > 0 && <MoreMenu items={items} />}
    </>
  )
}
