import * as Dialog from '@radix-ui/react-dialog'
import { useState, type JSX } from 'react'
import type { ParameterMapping } from '../../../../src/shared/dashboard-parameters.ts'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import type { ParameterDefinition } from '../../../../src/shared/parameters/index.ts'
import { DialogHeader } from '../../DialogHeader.tsx'
import { ui } from '../../ui.ts'
import { checkDrafts, draftsFrom, mappingsFrom } from '../../../../src/shared/dashboard-mappings.ts'
import { MappingEditor } from './MappingEditor.tsx'
import { DialogContent } from '../../DialogContent.tsx'

const t = dashboardTexts.parameters

/**
 * Widget Parameters (spec 2 §2, 700 px): maps each parameter of the widget's query. OK is offered once every row is
 * valid; saving resolves true when the widget has its new mappings.
 */
export default function ParameterMappingDialog({ parameters, options, dashboard, queryId, onSave, onClose }: {
  parameters: readonly ParameterDefinition[]
  options: Record<string, unknown>
  dashboard: ParameterDefinition[]
  queryId: number
  onSave: (mappings: Record<string, ParameterMapping>) => Promise<boolean>
  onClose: () => void
}): JSX.Element {
  const [drafts, setDrafts] = useState(() => draftsFrom(parameters, options, dashboard))
  const [busy, setBusy] = useState(false)
  const errors = checkDrafts(drafts, dashboard)
  const valid = Object.keys(errors).length === 0

  async function save() {
    setBusy(true)
    if (!(await onSave(mappingsFrom(drafts)))) setBusy(false)
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[700px]`} aria-describedby={undefined}>
          <DialogHeader title={t.dialogTitle} closeLabel={dashboardTexts.close} busy={busy} />
          <div className="flex min-h-0 flex-col gap-3 overflow-auto px-5 py-4">
            {parameters.length === 0
              ? <p className="text-sm text-slate-500 dark:text-slate-400">{t.noParameters}</p>
              : <MappingEditor parameters={parameters} drafts={drafts} dashboard={dashboard} errors={errors} queryId={queryId} onChange={setDrafts} />}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close className={ui.secondaryButton} disabled={busy}>{dashboardTexts.header.cancel}</Dialog.Close>
              <button type="button" className={ui.primaryButton} disabled={busy || !valid} onClick={() => void save()} data-dialog-primary>{busy ? t.saving : t.save}</button>
            </div>
          </div>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
