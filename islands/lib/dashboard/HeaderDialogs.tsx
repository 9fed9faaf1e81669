import { lazy, Suspense, type JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import type { DashboardChanges, HeaderEvent, HeaderState } from './model.ts'

// Dialogs load when first wanted: the view page ships only what viewing needs.
const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx'))
const TagsDialog = lazy(() => import('../query-page/TagsDialog.tsx').then((m) => ({ default: m.TagsDialog })))
const PermissionsDialog = lazy(() => import('./PermissionsDialog.tsx'))
const ShareDialog = lazy(() => import('./ShareDialog.tsx'))

const t = dashboardTexts.header

/** The header's open dialog, if any: tags, permissions, sharing, or the confirmation of Archive. */
export function HeaderDialogs({ state, unsafe, update, archive, dispatch }: {
  state: HeaderState
  /** Sharing cannot be turned on while a chart's query has text parameters. */
  unsafe: boolean | undefined
  update: (changes: DashboardChanges) => Promise<boolean>
  archive: () => Promise<boolean>
  dispatch: (event: HeaderEvent) => void
}): JSX.Element {
  const { dashboard: d, dialog } = state
  const close = () => dispatch({ type: 'closeDialog' })
  return (
    <Suspense fallback={null}>
      {dialog === 'tags' && <TagsDialog tags={d.tags} suggestFrom="/api/dashboards/tags" onSave={(tags) => update({ tags })} onClose={close} />}
      {dialog === 'permissions' && d.user && <PermissionsDialog dashboardId={d.id} owner={d.user} onClose={close} />}
      {dialog === 'share' && <ShareDialog dashboardId={d.id} publicUrl={state.publicUrl} unsafe={unsafe} onChange={(publicUrl) => dispatch({ type: 'shared', publicUrl })} onClose={close} />}
      {dialog === 'archive' && (
        <ConfirmDialog title={t.archiveTitle} body={t.archiveBody(d.name)} confirm={t.archive} busyLabel={t.archiving} cancel={t.cancel}
          onConfirm={async () => { if (await archive()) close() }} onClose={close} />
      )}
    </Suspense>
  )
}
