import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type FormEvent, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { api } from './api.ts'
import { ui } from './ui.ts'
import { DialogHeader } from './DialogHeader.tsx'
import { DialogContent } from './DialogContent.tsx'

const t = texts.groups

/**
 * The New Group dialog of /groups: a name (required), then Create, which opens the new group's page. The server's
 * refusal (a name in use, say) shows in the dialog, which stays open. Loaded when it first opens.
 */
export default function NewGroupDialog({ onClose }: { onClose: () => void }): JSX.Element {
  const inputId = useId()
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const blank = name.trim() === ''

  async function create(event: FormEvent) {
    event.preventDefault()
    if (blank || busy) return
    setBusy(true)
    setError(null)
    try {
      const group = await api<{ id: number }>('POST', '/api/groups', { name: name.trim() })
      window.location.assign(`/groups/${group.id}`)
      // stays busy while the group's page loads
      await new Promise(() => {})
    } catch (e) {
      setError((e as Error).message || texts.errors.unknown)
      setBusy(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[28rem]`} aria-describedby={undefined}>
          <form onSubmit={create} noValidate>
            <DialogHeader title={t.newGroup} closeLabel={t.close} busy={busy} />
            <div className="flex flex-col gap-3 p-5">
              <div>
                <label htmlFor={inputId} className={ui.label}>{t.name}</label>
                <input id={inputId} value={name} onChange={(e) => setName(e.target.value)} placeholder={t.namePlaceholder} required maxLength={255}
                  autoComplete="off" disabled={busy} aria-invalid={error ? true : undefined} className={`${ui.input} ${ui.inputBorder}`} />
              </div>
              {error && <p role="alert" className={ui.alert}>{error}</p>}
            </div>
            <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
              <Dialog.Close type="button" className={ui.secondaryButton} disabled={busy}>{t.cancel}</Dialog.Close>
              <button type="submit" className={ui.primaryButton} disabled={blank || busy} aria-busy={busy || undefined}>
                {busy ? t.creating : t.create}
              </button>
            </div>
          </form>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
