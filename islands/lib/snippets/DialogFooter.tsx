import * as Dialog from '@radix-ui/react-dialog'
import type { JSX, Ref } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { FORM_ID } from './SnippetForm.tsx'

const t = queryTexts.snippets

/** Delete (for a stored snippet one may change), then Cancel or Close, and Create or Save. */
export function DialogFooter({ editable, stored, saving, closeButton, onDelete }: {
  editable: boolean; stored: boolean; saving: boolean; closeButton: Ref<HTMLButtonElement>; onDelete: () => void
}): JSX.Element {
  return (
    <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-3 sm:flex-row sm:items-center dark:border-slate-800">
      {editable && stored && (
        <button type="button" className={`${ui.dangerButton} sm:mr-auto`} disabled={saving} onClick={onDelete}>{t.delete}</button>
      )}
      <div className="flex flex-col-reverse gap-2 sm:ml-auto sm:flex-row">
        <Dialog.Close ref={closeButton} className={ui.secondaryButton} disabled={saving}>{editable ? t.cancel : t.close}</Dialog.Close>
        {editable && (
          <button type="submit" form={FORM_ID} className={ui.primaryButton} disabled={saving} aria-busy={saving || undefined}>
            {saving ? t.saving : stored ? t.save : t.create}
          </button>
        )}
      </div>
    </div>
  )
}
