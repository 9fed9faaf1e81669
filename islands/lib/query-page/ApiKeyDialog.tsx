import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useRef, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { closePath, ui } from '../ui.ts'

const t = queryTexts.queryPage
const COPY_FEEDBACK_MS = 2000 // spec 2 §9

/** A Copy button that says Copied! or Copy failed for two seconds (spec 2 §4). */
function CopyButton({ text }: { text: string }): JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), COPY_FEEDBACK_MS)
  }
  return (
    <button type="button" className={`${ui.secondaryButton} min-w-24`} onClick={() => void copy()} aria-live="polite">
      {state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : t.copy}
    </button>
  )
}

/**
 * Show API Key: the key is fetched when the dialog opens (the page's HTML never holds it), with the addresses it
 * opens; those who may edit the query can regenerate it, which stops the old one at once.
 */
export function ApiKeyDialog({ queryId, canRegenerate, onVersion, onClose }: {
  queryId: number
  canRegenerate: boolean
  onVersion: (version: number) => void
  onClose: () => void
}): JSX.Element {
  const [key, setKey] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    api<{ api_key: string }>('GET', `/api/queries/${queryId}`).then((q) => setKey(q.api_key), (e: Error) => toast(e.message, 'error'))
  }, [queryId])

  async function regenerate() {
    setBusy(true)
    try {
      const q = await api<{ api_key: string; version: number }>('POST', `/api/queries/${queryId}/regenerate_api_key`)
      setKey(q.api_key)
      onVersion(q.version)
    } catch {
      toast(t.apiKeyFailed, 'error')
    } finally {
      setBusy(false)
    }
  }

  const origin = typeof window === 'undefined' ? '' : window.location.origin
  const urls = key ? ['csv', 'json'].map((ext) => `${origin}/api/queries/${queryId}/results.${ext}?api_key=${key}`) : []
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[38rem]`}>
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3 dark:border-slate-800">
            <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.apiKeyTitle}</Dialog.Title>
            <Dialog.Close className={ui.iconButton} aria-label={t.close}>
              <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d={closePath} /></svg>
            </Dialog.Close>
          </div>
          <div className="flex flex-col gap-4 overflow-y-auto px-5 py-4">
            <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">{t.apiKeyHint}</Dialog.Description>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input readOnly value={key ?? t.loading} aria-label={t.apiKeyTitle} data-api-key
                className={`${ui.input} ${ui.inputBorder} font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
              <div className="flex gap-2">
                {key && <CopyButton text={key} />}
                {canRegenerate && (
                  <button type="button" className={ui.secondaryButton} disabled={busy || !key} onClick={() => void regenerate()}>
                    {busy ? t.regenerating : t.regenerate}
                  </button>
                )}
              </div>
            </div>
            {urls.length > 0 && (
              <div>
                <p className={ui.label}>{t.resultsUrls}</p>
                <ul className="flex flex-col gap-1.5">
                  {urls.map((url) => (
                    <li key={url} className="rounded-md bg-slate-50 px-3 py-2 font-mono text-xs break-all text-slate-700 dark:bg-slate-800 dark:text-slate-300">{url}</li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
