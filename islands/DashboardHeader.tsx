import { lazy, Suspense, useEffect, useState, type JSX } from 'react'
import { dashboardTexts } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import { api, ApiError, serverMessage } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashForkSkipped } from './lib/flash.ts'
import { setAddressFlag } from './lib/dashboard/address.ts'
import { HeaderByline } from './lib/dashboard/HeaderByline.tsx'
import { HeaderDialogs } from './lib/dashboard/HeaderDialogs.tsx'
import { forkDashboard, initialHeader, isEditable, reduceHeader, sendChange, sendFavorite, type DashboardChanges, type HeaderCommand, type HeaderEvent } from './lib/dashboard/model.ts'
import { TitleField } from './lib/dashboard/TitleField.tsx'
import type { DashboardHeaderProps } from './lib/dashboard/types.ts'
import { ViewControls } from './lib/dashboard/ViewControls.tsx'
import { ui } from './lib/ui.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'

// Edit mode loads when first wanted: the view page ships only what viewing needs.
const EditMode = lazy(() => import('./lib/dashboard/edit/EditMode.tsx'))

/** The page's root element, which carries the fullscreen mark the stylesheet hides the app's chrome by. */
const pageRoot = () => document.querySelector<HTMLElement>('[data-dashboard]')

const failureOf = (error: unknown) => ({ status: error instanceof ApiError ? error.status : 0, reason: serverMessage(error) })

async function run(command: HeaderCommand, dispatch: Dispatch<HeaderEvent>) {
  switch (command.kind) {
    case 'address': return setAddressFlag(command.flag, command.on)
    case 'change': {
      const answer = await sendChange(api, command.method, command.path, command.body, failureOf)
      await dispatch(answer)
      return command.settle?.(answer.type === 'answered')
    }
    case 'favorite': {
      const refused = await sendFavorite(api, command.method, command.path, command.on)
      if (refused) await dispatch(refused)
      return
    }
    case 'fork': return dispatch(await forkDashboard(api, command.path))
    case 'toast': return toast(command.message, 'error', { description: command.description, ...(command.persistent ? { persistent: true } : {}) })
    case 'flashForkSkipped': return flashForkSkipped(command.count, command.path)
    case 'open': return window.location.assign(command.path)
  }
}

/**
 * The dashboard page's header (spec 2 §2): name, owner, tags, draft and archived marks, and the controls of view mode
 * (Unarchive, Publish, Refresh with auto-refresh, fullscreen, favourite, the More menu) or of edit mode, whose code
 * and grid load only when editing starts.
 */
function DashboardHeader({ dashboard: initial, mayManagePermissions, mayFork, refreshIntervals, initial: flags, share }: DashboardHeaderProps): JSX.Element {
  const [state, dispatch] = useModel(reduceHeader, () => initialHeader(initial, flags, share?.publicUrl ?? null), run)
  const send = (event: HeaderEvent) => void dispatch(event)
  const update = (changes: DashboardChanges) => new Promise<boolean>((settle) => send({ type: 'change', changes, settle }))
  const archive = () => new Promise<boolean>((settle) => send({ type: 'archive', settle }))
  const { dashboard: d, editing } = state
  // edit mode's code loads in the browser only: the server and the first (hydrating) render show its placeholder
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const editable = isEditable(d)

  useEffect(() => {
    pageRoot()?.toggleAttribute('data-fullscreen', state.fullscreen && !d.is_draft)
  }, [state.fullscreen, d.is_draft])

  const loading = <span className="text-sm text-slate-500 dark:text-slate-400">{dashboardTexts.edit.loading}</span>
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
                {hydrated ? <EditMode dashboard={d} update={update} onDone={() => send({ type: 'edit', on: false })} /> : loading}
              </Suspense>
            )
            : <ViewControls state={state} rights={{ mayManagePermissions, mayFork }} refreshIntervals={refreshIntervals} refresh={flags.refresh}
                shareable={!!share} update={update} dispatch={send} />}
        </div>
      </div>
      <HeaderByline dashboard={d} editable={editable} onEditTags={() => send({ type: 'openDialog', dialog: 'tags' })} />
      <HeaderDialogs state={state} unsafe={share?.unsafe} update={update} archive={archive} dispatch={send} />
    </header>
  )
}

export default island('DashboardHeader', DashboardHeader)
