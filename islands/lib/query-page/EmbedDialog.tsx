import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useState, type JSX } from 'react'
import { EMBED_FRAME, embedTexts as t } from '../../../src/shared/embed-texts.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { CopyField } from '../CopyField.tsx'
import { toast } from '../bus.ts'
import { DialogHeader } from '../DialogHeader.tsx'
import { ui } from '../ui.ts'
import { embedAddress, iframeSnippet, type EmbedSwitches } from './embed-address.ts'
import { DialogContent } from '../DialogContent.tsx'

const SWITCHES: [keyof EmbedSwitches, string][] = [
  ['hide_header', t.hideHeader], ['hide_parameters', t.hideParameters], ['hide_link', t.hideLink],
  ['hide_timestamp', t.hideTimestamp], ['showDescription', t.showDescription],
]

/** A whole number of pixels between 1 and 10,000, else the last good one. */
const pixels = (text: string, last: number) => {
  const n = Number(text)
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : last
}

const codeBox = 'min-w-0 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-xs break-all text-slate-700 dark:bg-slate-800 dark:text-slate-300'

/**
 * Embed (spec 2 §2 "embed dialog"): the iframe snippet for the visualization shown, 720 × 391 unless changed, and its
 * address with the switches chosen, each with a Copy button. The query's key is fetched when the dialog opens.
 */
export function EmbedDialog({ queryId, visualizationId, onClose }: {
  queryId: number
  visualizationId: number
  onClose: () => void
}): JSX.Element {
  const [key, setKey] = useState<string | null>(null)
  const [width, setWidth] = useState<number>(EMBED_FRAME.width)
  const [height, setHeight] = useState<number>(EMBED_FRAME.height)
  const [switches, setSwitches] = useState<EmbedSwitches>({})
  useEffect(() => {
    api<{ api_key: string }>('GET', `/api/queries/${queryId}`).then((q) => setKey(q.api_key), (e: Error) => toast(e.message, 'error'))
  }, [queryId])

  const origin = typeof window === 'undefined' ? '' : window.location.origin
  const url = key ? embedAddress(origin, queryId, visualizationId, key, switches) : null
  const snippet = url ? iframeSnippet(url, width, height) : null
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[40rem]`} data-embed-dialog>
          <DialogHeader title={t.dialogTitle} closeLabel={queryTexts.queryPage.close} />
          <div className="flex flex-col gap-4 overflow-y-auto px-5 py-4">
            <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">{t.dialogHint}</Dialog.Description>
            <CopyField label={t.iframe} text={snippet}>
              <code className={codeBox} data-embed-snippet>{snippet ?? queryTexts.queryPage.loading}</code>
            </CopyField>
            <div className="flex flex-wrap gap-4">
              <label className="flex flex-col text-sm">
                <span className={ui.label}>{t.width}</span>
                <input type="number" min={1} max={10000} defaultValue={width} className={`${ui.input} ${ui.inputBorder} w-28`} data-embed-width
                  onChange={(e) => { const text = e.currentTarget.value; setWidth((w) => pixels(text, w)) }} />
              </label>
              <label className="flex flex-col text-sm">
                <span className={ui.label}>{t.height}</span>
                <input type="number" min={1} max={10000} defaultValue={height} className={`${ui.input} ${ui.inputBorder} w-28`} data-embed-height
                  onChange={(e) => { const text = e.currentTarget.value; setHeight((h) => pixels(text, h)) }} />
              </label>
            </div>
            <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
              {SWITCHES.map(([name, label]) => (
                <label key={name} className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
                  <input type="checkbox" checked={!!switches[name]} data-switch={name}
                    onChange={(e) => { const on = e.currentTarget.checked; setSwitches((s) => ({ ...s, [name]: on })) }} />
                  {label}
                </label>
              ))}
            </fieldset>
            <CopyField label={t.address} text={url}>
              <code className={codeBox} data-embed-url>{url ?? queryTexts.queryPage.loading}</code>
            </CopyField>
          </div>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
