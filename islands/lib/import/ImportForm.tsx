import type { JSX } from 'react'
import { importTexts as t } from '../../../src/shared/import-summary.ts'
import { ui } from '../ui.ts'
import { isActive, type ImportEvent, type ImportState } from './model.ts'

/** The old instance's address and API key, and how to import from it; one run at a time. */
export function ImportForm({ state, send }: { state: ImportState; send: (event: ImportEvent) => void }): JSX.Element {
  return (
    <form onSubmit={(e) => { e.preventDefault(); send({ type: 'submit' }) }} className={`${ui.card} flex flex-col gap-4 p-4`}>
      <div><label htmlFor="import-from" className={ui.label}>{t.fromUrl}</label>
        <input id="import-from" className={`${ui.input} ${ui.inputBorder}`} type="url" required value={state.fromUrl}
          onChange={(e) => send({ type: 'type', field: 'fromUrl', value: e.target.value })} placeholder="https://redash.example.com" /></div>
      <div><label htmlFor="import-key" className={ui.label}>{t.apiKey}</label>
        <input id="import-key" className={`${ui.input} ${ui.inputBorder}`} type="password" autoComplete="off" required value={state.apiKey}
          onChange={(e) => send({ type: 'type', field: 'apiKey', value: e.target.value })} aria-describedby="import-key-hint" />
        <p id="import-key-hint" className="mt-1 text-xs text-slate-500">{t.apiKeyHint}</p></div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={state.dryRun} onChange={(e) => send({ type: 'check', field: 'dryRun', value: e.target.checked })} />{t.dryRun}
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={state.keepIds} onChange={(e) => send({ type: 'check', field: 'keepIds', value: e.target.checked })} />{t.keepIds}
      </label>
      {state.error ? <p role="alert" className={ui.alert}>{state.error}</p> : null}
      <div><button type="submit" className={ui.primaryButton} disabled={state.busy || isActive(state.run)}>{state.busy ? t.starting : t.start}</button></div>
    </form>
  )
}
