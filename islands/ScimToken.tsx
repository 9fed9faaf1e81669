import { useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { Section } from './lib/org-settings/fields.tsx'
import { ui } from './lib/ui.ts'

const t = texts.orgSettings

/**
 * The organization's SCIM token on the settings page: made (and shown this once: the server keeps only its hash),
 * made anew (the old one stops at once) or revoked.
 */
function ScimToken({ exists: initiallyExists, createdAt: initialAt, endpoint }: { exists: boolean; createdAt: string | null; endpoint: string }): JSX.Element {
  const [createdAt, setCreatedAt] = useState(initiallyExists ? initialAt : null)
  const [token, setToken] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function run(action: () => Promise<void>) {
    setBusy(true)
    try {
      await action()
    } catch (error) {
      toast((error as Error).message || texts.settings.failed, 'error')
    } finally {
      setBusy(false)
    }
  }
  const generate = () => run(async () => {
    const made = await api<{ token: string; created_at: string }>('POST', '/api/scim/token')
    setToken(made.token)
    setCreatedAt(made.created_at)
  })
  const revoke = () => run(async () => {
    await api('DELETE', '/api/scim/token')
    setToken(null)
    setCreatedAt(null)
    toast(t.scimRevoked)
  })

  return (
    <Section id="org-settings-scim" title={t.scim}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t.scimAbout(endpoint)}</p>
      <p className="text-sm text-slate-700 dark:text-slate-200">{createdAt ? t.scimSince(new Date(createdAt).toLocaleString()) : t.scimNone}</p>
      {token && (
        <div className="flex flex-col gap-1">
          <label htmlFor="scim-token" className={ui.label}>{t.scimTokenLabel}</label>
          <input id="scim-token" readOnly value={token} className={`${ui.input} font-mono`} onFocus={(e) => e.currentTarget.select()} />
          <p className="text-xs text-amber-700 dark:text-amber-300">{t.scimShownOnce}</p>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" disabled={busy} onClick={generate} className={ui.primaryButton}>{createdAt ? t.scimRegenerate : t.scimGenerate}</button>
        {createdAt && <button type="button" disabled={busy} onClick={revoke} className={ui.dangerButton}>{t.scimRevoke}</button>}
      </div>
    </Section>
  )
}

export default island('ScimToken', ScimToken)
