import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useState, type JSX } from 'react'
import { embedTexts } from '../../../src/shared/embed-texts.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { DialogHeader } from '../DialogHeader.tsx'
import { ui } from '../ui.ts'
import { CopyButton } from './CopyButton.tsx'
import { embedAddress } from './embed-address.ts'
import { DialogContent } from '../DialogContent.tsx'

const t = queryTexts.queryPage

// the share dialog of dashboards takes the same button from here
export { CopyButton }

interface KeyedQuery {
  api_key: string
  version: number
  visualizations?: { id: number; name: string }[]
}

const Address = ({ url }: { url: string }) => (
  <li className="flex items-center gap-2">
    <span className="min-w-0 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-xs break-all text-slate-700 dark:bg-slate-800 dark:text-slate-300">{url}</span>
  </li>
)

/**
 * Show API Key: the key is fetched when the dialog opens (the page's HTML never holds it), with the addresses it
 * opens (the latest results as CSV and JSON, and each visualization's embed page); those who may edit the query can
 * regenerate it, which stops the old one at once.
 */
export function ApiKeyDialog({ queryId, canRegenerate, onVersion, onClose }: {
  queryId: number
  canRegenerate: boolean
  onVersion: (version: number) => void
  onClose: () => void
}): JSX.Element {
  const [query, setQuery] = useState<KeyedQuery | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    api<KeyedQuery>('GET', `/api/queries/${queryId}`).then(setQuery, (e: Error) => toast(e.message, 'error'))
  }, [queryId])
  const key = query?.api_key ?? null

  async function regenerate() {
    setBusy(true)
    try {
      const q = await api<{ api_key: string; version: number }>('POST', `/api/queries/${queryId}/regenerate_api_key`)
      setQuery((now) => now && { ...now, api_key: q.api_key })
      onVersion(q.version)
    } catch {
      toast(t.apiKeyFailed, 'error')
    } finally {
      setBusy(false)
    }
  }

  const origin = typeof window === 'undefined' ? '' : window.location.origin
  const urls = key ? ['csv', 'json'].map((ext) => `${origin}/api/queries/${queryId}/results.${ext}?api_key=${key}`) : []
  const embeds = key ? (query?.visualizations ?? []).map((v) => ({ id: v.id, name: v.name, url: embedAddress(origin, queryId, v.id, key, {}) })) : []
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[38rem]`}>
          <DialogHeader title={t.apiKeyTitle} closeLabel={t.close} />
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
                <ul className="flex flex-col gap-1.5">{urls.map((url) => <Address key={url} url={url} />)}</ul>
              </div>
            )}
            {embeds.length > 0 && (
              <div data-embed-addresses>
                <p className={ui.label}>{embedTexts.embedUrls}</p>
                <ul className="flex flex-col gap-1.5">
                  {embeds.map((e) => (
                    <li key={e.id} className="flex flex-col gap-0.5">
                      <span className="text-xs text-slate-500 dark:text-slate-400">{e.name}</span>
                      <a href={e.url} target="_blank" rel="noopener noreferrer" className="rounded-md bg-slate-50 px-3 py-2 font-mono text-xs break-all text-indigo-700 hover:underline dark:bg-slate-800 dark:text-indigo-300">{e.url}</a>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
