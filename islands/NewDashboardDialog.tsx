import * as Dialog from '@radix-ui/react-dialog'
import { useState, type FormEvent, type JSX } from 'react'
import { dashboardTexts as t } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import { api, serverMessage } from './lib/api.ts'
import { ui } from './lib/ui.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'

const NAME_ID = 'new-dashboard-name'

/**
 * The New Dashboard dialog (spec 1 §2, §5): one name, trimmed; Save is disabled while it is blank or while saving,
 * Enter saves. The new dashboard opens in edit mode (`?edit`); a refusal shows in the dialog; Close goes to the list.
 */
function NewDashboardDialog({ listPath }: { listPath: string }): JSX.Element {
  const [open, setOpen] = useState(true)
  const [name, setName] = useState('')
  const [saving, setSaving] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  function close() {
    if (saving) return
    setOpen(false)
    window.location.assign(listPath)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (saving || !name.trim()) return
    setSaving(true)
    setFailure(null)
    try {
      const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: name.trim() })
      window.location.assign(`/dashboards/${created.id}-${created.slug}?edit`)
    } catch (error) {
      setFailure(serverMessage(error) || t.failedSaving)
      setSaving(false)
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[28rem]`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            e.preventDefault()
            document.getElementById(NAME_ID)?.focus()
          }}>
          <DialogHeader title={t.newDashboard} closeLabel={t.close} busy={saving} />
          <form onSubmit={submit} className="flex flex-col gap-4 p-5" aria-busy={saving || undefined}>
            {failure && <div role="alert" className={ui.alert}>{failure}</div>}
            <label htmlFor={NAME_ID} className="sr-only">{t.name}</label>
            <input id={NAME_ID} type="text" value={name} placeholder={t.dashboardName} disabled={saving} autoComplete="off" maxLength={255}
              onChange={(e) => setName(e.target.value)} className={`${ui.input} ${ui.inputBorder}`} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close className={ui.secondaryButton} disabled={saving}>{t.close}</Dialog.Close>
              <button type="submit" className={ui.primaryButton} disabled={saving || !name.trim()} aria-busy={saving || undefined}>
                {saving ? t.saving : t.save}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('NewDashboardDialog', NewDashboardDialog)
