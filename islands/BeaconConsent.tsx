import { useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'

/** Asks an admin once whether to share anonymous usage data (spec 1 §2); hides after the answer is saved. */
function BeaconConsent(): JSX.Element | null {
  const [answered, setAnswered] = useState(false)
  const [busy, setBusy] = useState(false)

  async function answer(consent: boolean) {
    setBusy(true)
    try {
      await api('POST', '/api/settings/organization', { beacon_consent: consent })
      setAnswered(true)
      toast(consent ? texts.beacon.thanks : texts.beacon.saved)
    } catch (error) {
      toast((error as Error).message || texts.settings.failed, 'error')
    } finally {
      setBusy(false)
    }
  }

  if (answered) return null
  const button = 'rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50'
  return (
    <section aria-labelledby="beacon-title" className="rounded-lg border border-indigo-200 bg-indigo-50 p-5 dark:border-indigo-900 dark:bg-indigo-950/40">
      <h2 id="beacon-title" className="text-sm font-semibold text-slate-900 dark:text-slate-100">{texts.beacon.title}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{texts.beacon.body}</p>
      <div className="mt-4 flex gap-2">
        <button type="button" disabled={busy} onClick={() => answer(true)} className={`${button} bg-indigo-600 text-white hover:bg-indigo-500`}>{texts.beacon.yes}</button>
        <button type="button" disabled={busy} onClick={() => answer(false)} className={`${button} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200`}>{texts.beacon.no}</button>
      </div>
    </section>
  )
}

export default island('BeaconConsent', BeaconConsent)
