import { lazy, Suspense, useEffect, useState, type JSX } from 'react'
import { dashboardTexts } from '../src/shared/dashboard-texts.ts'
import { shareTexts } from '../src/shared/share-texts.ts'
import { island } from '../src/shared/island.tsx'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashForkSkipped } from './lib/flash.ts'
import { setAddressFlag } from './lib/dashboard/address.ts'
import { RefreshControl } from './lib/dashboard/RefreshControl.tsx'
import { TitleField } from './lib/dashboard/TitleField.tsx'
import type { DashboardHeaderProps } from './lib/dashboard/types.ts'
import { useDashboard } from './lib/dashboard/use-dashboard.ts'
import { MoreMenu, type MenuItem } from './lib/query-page/MoreMenu.tsx'
import { ui } from './lib/ui.ts'

// Dialogs and edit mode load when first wanted: the view page ships only what viewing needs.
const EditMode = lazy(() => import('./lib/dashboard/edit/EditMode.tsx'))
const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))
const TagsDialog = lazy(() => import('./lib/query-page/TagsDialog.tsx').then((m) => ({ default: m.TagsDialog })))
const PermissionsDialog = lazy(() => import('./lib/dashboard/PermissionsDialog.tsx'))
const ShareDialog = lazy(() => import('./lib/dashboard/ShareDialog.tsx'))

const t = dashboardTexts.header
type Dialog = 'tags' | 'archive' | 'permissions' | 'share' | null

/** The page's root element, which carries the fullscreen mark the stylesheet hides the app's chrome by. */
const pageRoot = () => document.querySelector<HTMLElement>('[data-dashboard]')

/**
 * The dashboard page's header (spec 2 §2): name, owner, tags, draft and archived marks, and the controls of view mode
 * (Unarchive, Publish, Refresh with auto-refresh, fullscreen, favourite, the More menu) or of edit mode, whose code
 * and grid load only when editing starts.
 */
function DashboardHeader({ dashboard: initial, mayManagePermissions, mayFork, refreshIntervals, initial: flags, share }: DashboardHeaderProps): JSX.Element {
  const { dashboard: d, update, archive, setFavorite } = useDashboard(initial)
  const [publicUrl, setPublicUrl] = useState(share?.publicUrl ?? null)
  const [editing, setEditing] = useState(flags.edit)
  const [fullscreen, setFullscreen] = useState(flags.fullscreen)
  const [dialog, setDialog] = useState<Dialog>(null)
  // edit mode's code loads in the browser only: the server and the first (hydrating) render show its placeholder
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const editable = d.can_edit && !d.is_archived

  useEffect(() => {
    pageRoot()?.toggleAttribute('data-fullscreen', fullscreen && !d.is_draft)
  }, [fullscreen, d.is_draft])

  function edit(on: boolean) {
    setEditing(on)
    setAddressFlag('edit', on)
  }

  function toggleFullscreen() {
    setFullscreen(!fullscreen)
    setAddressFlag('fullscreen', !fullscreen)
  }

  async function fork() {
    try {
      const copy = await api<{ id: number; slug: string; skipped_widgets?: number }>('POST', `/api/dashboards/${d.id}/fork`)
      const path = `/dashboards/${copy.id}-${copy.slug}`
      // the copy's page says how many charts were left out (a toast would vanish with this page)
      if (copy.skipped_widgets) flashForkSkipped(copy.skipped_widgets, path)
      window.location.assign(path)
    } catch {
      toast(t.forkFailed, 'error')
    }
  }

  const loading = <span className="text-sm text-slate-500 dark:text-slate-400">{dashboardTexts.edit.loading}</span>
  const items: MenuItem[] = []
  if (editable) items.push({ label: t.edit, onSelect: () => edit(true) })
  if (mayManagePermissions && !d.is_archived) items.push({ label: t.managePermissions, onSelect: () => setDialog('permissions') })
  if (editable && !d.is_draft) items.push({ label: t.unpublish, onSelect: () => void update({ is_draft: true }) })
  if (mayFork) items.push({ label: t.fork, onSelect: () => void fork() })
  // exports drawn by the server with the address's parameter values and filters, as the page shows them
  const search = typeof window === 'undefined' ? '' : window.location.search
  items.push({ label: t.exportPdf, href: `/api/dashboards/${d.id}/export.pdf${search}`, onSelect: () => undefined })
  items.push({ label: t.exportPng, href: `/api/dashboards/${d.id}/export.png${search}`, onSelect: () => undefined })
  if (editable) items.push({ label: t.archive, danger: true, onSelect: () => setDialog('archive') })

  return (
    <header className="flex flex-col gap-2" data-dashboard-header>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
          <TitleField name={d.name} editable={editing && editable} onRename={(name) => update({ name })} />
          {d.is_draft && !d.is_archived && <span className={ui.badge}>{dashboardTexts.unpublished}</span>}
          {d.is_archived && <span className={ui.badge}>{dashboardTexts.archived}</span>}
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          {editing && editable
            ? (
              <Suspense fallback={loading}>
                {hydrated ? <EditMode dashboard={d} update={update} onDone={() => edit(false)} /> : loading}
              </Suspense>
            )
            : (
              <>
                {d.is_archived && d.can_edit && <button type="button" className={ui.primaryButton} onClick={() => void update({ is_archived: false })}>{t.unarchive}</button>}
                {editable && d.is_draft && <button type="button" className={ui.primaryButton} onClick={() => void update({ is_draft: false })}>{t.publish}</button>}
                <RefreshControl intervals={refreshIntervals} initial={flags.refresh} />
                {/* spec 2 §6: a published dashboard, or one already shared */}
                {share && !d.is_archived && (!d.is_draft || publicUrl) && (
                  <button type="button" className={ui.secondaryButton} data-share-button aria-pressed={publicUrl !== null} onClick={() => setDialog('share')}>{shareTexts.share}</button>
                )}
                {!d.is_draft && (
                  <button type="button" className={`${ui.secondaryButton} px-2.5`} aria-label={t.fullscreen} aria-pressed={fullscreen} onClick={toggleFullscreen}>
                    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
                      <path d={fullscreen ? 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5' : 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5'} />
                    </svg>
                  </button>
                )}
                <button type="button" className={`${ui.secondaryButton} px-2.5`} aria-label={t.favorite} aria-pressed={d.is_favorite}
                  onClick={() => void setFavorite(!d.is_favorite)}>
                  <svg viewBox="0 0 24 24" className={`h-4 w-4 ${d.is_favorite ? 'fill-amber-400 text-amber-500' : 'fill-none'}`} stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden="true">
                    <path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1 6.2-5.5-2.9-5.5 2.9 1-6.2L3 9.6l6.2-.9z" />
                  </svg>
                </button>
                {items.length > 0 && <MoreMenu items={items} />}
              </>
            )}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400">
        {d.user && (
          <span className="mr-2 flex items-center gap-1.5" title={t.owner(d.user.name)}>
            <img src={d.user.profile_image_url} alt="" width={20} height={20} className="h-5 w-5 rounded-full" />
            {dashboardTexts.by(d.user.name)}
          </span>
        )}
        {d.tags.length > 0 && (
          <ul aria-label={dashboardTexts.tags} className="flex flex-wrap gap-1">
            {d.tags.map((tag) => (
              <li key={tag}>
                <a href={`/dashboards?tags=${encodeURIComponent(tag)}`} data-tag
                  className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-950 dark:text-indigo-300">{tag}</a>
              </li>
            ))}
          </ul>
        )}
        {editable && (
          <button type="button" onClick={() => setDialog('tags')}
            className="rounded-full border border-dashed border-slate-400 px-2 py-0.5 text-xs text-slate-600 hover:border-indigo-400 hover:text-indigo-700 dark:border-slate-500 dark:text-slate-300">
            {d.tags.length ? t.editTags : `+ ${t.addTags}`}
          </button>
        )}
      </div>
      <Suspense fallback={null}>
        {dialog === 'tags' && <TagsDialog tags={d.tags} suggestFrom="/api/dashboards/tags" onSave={(tags) => update({ tags })} onClose={() => setDialog(null)} />}
        {dialog === 'permissions' && d.user && <PermissionsDialog dashboardId={d.id} owner={d.user} onClose={() => setDialog(null)} />}
        {dialog === 'share' && <ShareDialog dashboardId={d.id} publicUrl={publicUrl} unsafe={share?.unsafe} onChange={setPublicUrl} onClose={() => setDialog(null)} />}
        {dialog === 'archive' && (
          <ConfirmDialog title={t.archiveTitle} body={t.archiveBody(d.name)} confirm={t.archive} busyLabel={t.archiving} cancel={t.cancel}
            onConfirm={async () => { if (await archive()) setDialog(null) }} onClose={() => setDialog(null)} />
        )}
      </Suspense>
    </header>
  )
}

export default island('DashboardHeader', DashboardHeader)
