import * as Dialog from '@radix-ui/react-dialog'
import { lazy, Suspense, useRef, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { queryTexts } from '../src/shared/query-texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { ui } from './lib/ui.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'
import { DialogFooter } from './lib/snippets/DialogFooter.tsx'
import { FORM_ID, SnippetForm } from './lib/snippets/SnippetForm.tsx'
import { deleteSnippet, initialDialog, isEditable, loadSnippet, reduceDialog, saveSnippet, titleOf, type DialogCommand, type DialogEvent, type SnippetView, type Viewer } from './lib/snippets/model.ts'
import { refreshList } from './lib/snippets/refresh-list.ts'
import { useSnippetLinks } from './lib/snippets/use-snippet-links.ts'

export { SNIPPETS_RESULTS_ID } from './lib/snippets/refresh-list.ts'
export type { SnippetView } from './lib/snippets/model.ts'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))
const t = queryTexts.snippets

/** Carries out what the model asks for: the address bar, a toast, the list's fresh copy. */
async function run(command: DialogCommand, dispatch: Dispatch<DialogEvent>) {
  if (command.kind === 'address') window.history.replaceState(window.history.state, '', command.path)
  else if (command.kind === 'toast') toast(command.message, command.level)
  else {
    await refreshList(command.href)
    await dispatch({ type: 'listRefreshed' })
  }
}

/**
 * The snippet dialog of the query snippets page (spec 2 §2, §6): create, edit and delete for the author or an admin,
 * read-only with Close for everyone else. Open at load on /query_snippets/new and /query_snippets/{id}; on the list,
 * the snippet links open it in place (their addresses still work without script or in a new tab).
 */
function SnippetDialog({ opened, listHref, viewer }: { opened: SnippetView | 'new' | null; listHref: string; viewer: Viewer }): JSX.Element {
  const [state, dispatch] = useModel(reduceDialog, () => initialDialog(opened, listHref), run)
  const { current, saving, failure, confirming } = state
  const closeButton = useRef<HTMLButtonElement>(null)
  useSnippetLinks(async (id, href) => dispatch(await loadSnippet(api, id, href)))

  const snippet = current === 'new' ? null : current
  const editable = isEditable(current, viewer)
  return (
    <Dialog.Root open={current !== null} onOpenChange={(open) => !open && !saving && void dispatch({ type: 'close' })}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={ui.dialog} aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            // straight into the first field, or onto Close when there is nothing to change, rather than onto the ×
            event.preventDefault()
            if (editable) document.querySelector<HTMLElement>(`#${FORM_ID} input`)?.focus()
            else closeButton.current?.focus()
          }}>
          <DialogHeader title={titleOf(current, editable)} closeLabel={t.close} busy={saving} />
          <div className="min-h-0 flex-1 overflow-y-auto p-5">
            {!editable && <p role="note" className="mb-4 text-sm text-slate-600 dark:text-slate-400">{t.readOnly}</p>}
            {failure && <div role="alert" className={`${ui.alert} mb-4`}>{failure}</div>}
            {current !== null && (
              <SnippetForm key={state.openings} snippet={snippet} editable={editable} saving={saving}
                onSave={async (values) => { await dispatch({ type: 'saveStarted' }); await dispatch(await saveSnippet(api, snippet, values)) }} />
            )}
            {snippet && (
              <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">{t.createdBy}: {snippet.user?.name ?? t.deletedUser}</p>
            )}
          </div>
          <DialogFooter editable={editable} stored={!!snippet} saving={saving} closeButton={closeButton}
            onDelete={() => void dispatch({ type: 'confirmDelete' })} />
          {confirming && snippet && (
            <Suspense fallback={null}>
              <ConfirmDialog title={t.deleteTitle} body={t.deleteConfirm(snippet.trigger)} confirm={t.delete} busyLabel={t.deleting}
                cancel={t.cancel} onConfirm={async () => dispatch(await deleteSnippet(api, snippet))} onClose={() => void dispatch({ type: 'cancelDelete' })} />
            </Suspense>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('SnippetDialog', SnippetDialog)
