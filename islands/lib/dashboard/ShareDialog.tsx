import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type JSX } from 'react'
import { shareTexts as t } from '../../../src/shared/share-texts.ts'
import { absoluteLink } from '../absolute-link.ts'
import { api, serverMessage } from '../api.ts'
import { CopyField } from '../CopyField.tsx'
import { DialogHeader } from '../DialogHeader.tsx'
import { ui } from '../ui.ts'
import { DialogContent } from '../DialogContent.tsx'

/**
 * Share Dashboard (spec 2 §2 "Dialogs", §4 "Public sharing"): a switch for public access, saved at once (with a
 * saving state), and while it is on the secret address with a Copy button ('Copied!' / 'Copy failed' for 2 s). While
 * a chart's query has text parameters the switch cannot turn sharing on and spec 2 §5's message shows from the start
 * (turning an existing share off still works); a refusal the page did not foresee shows the server's message.
 */
export default function ShareDialog({ dashboardId, publicUrl: initial, unsafe = false, onChange, onClose }: {
  dashboardId: number
  publicUrl: string | null
  /** A chart's query has text parameters: sharing cannot be turned on. */
  unsafe?: boolean
  /** The address after each change (null: off), so the header opens the dialog as it was left. */
  onChange: (publicUrl: string | null) => void
  onClose: () => void
}): JSX.Element {
  const [publicUrl, setPublicUrl] = useState(initial)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState('')
  // "no longer works" only once an address existed here: a dashboard never shared has none to stop
  const [turnedOff, setTurnedOff] = useState(false)
  const id = useId()

  async function toggle(on: boolean) {
    setSaving(true)
    setError('')
    try {
      const next = on ? (await api<{ public_url: string }>('POST', `/api/dashboards/${dashboardId}/share`)).public_url : null
      if (!on) await api('DELETE', `/api/dashboards/${dashboardId}/share`)
      setPublicUrl(next)
      setTurnedOff(!on)
      onChange(next)
    } catch (e) {
      setError(serverMessage(e) || t.saveFailed)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[34rem]`} aria-describedby={`${id}-hint`} data-share-dialog>
          <DialogHeader title={t.title} closeLabel={t.close} />
          <div className="flex flex-col gap-4 px-5 py-4">
            <label className="flex items-center justify-between gap-4 text-sm font-medium text-slate-800 dark:text-slate-200">
              {t.allowPublic}
              <span className="flex items-center gap-2">
                {saving && <span role="status" className="text-xs font-normal text-slate-500 dark:text-slate-400">{t.saving}</span>}
                <input type="checkbox" role="switch" checked={publicUrl !== null} disabled={saving || (unsafe && publicUrl === null)} aria-busy={saving || undefined}
                  onChange={(e) => void toggle(e.target.checked)} className="h-5 w-9 cursor-pointer accent-indigo-600" />
              </span>
            </label>
            <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">{publicUrl !== null ? t.publicHint : turnedOff ? t.turnedOff : t.off}</p>
            {unsafe && !error && <p className={ui.alert} data-share-unsafe>{t.unsafe}</p>}
            {error && <p role="alert" className={ui.alert}>{error}</p>}
            {publicUrl !== null && (
              <CopyField label={t.secretAddress} text={absoluteLink(publicUrl)} htmlFor={`${id}-url`}>
                <input id={`${id}-url`} readOnly value={absoluteLink(publicUrl)} onFocus={(e) => e.target.select()} className={`${ui.input} ${ui.inputBorder} font-mono text-xs`} />
              </CopyField>
            )}
          </div>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
