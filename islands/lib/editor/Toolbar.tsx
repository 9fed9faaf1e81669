import { useEffect, useState, type JSX, type ReactNode } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'

const t = queryTexts.editor
const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
const quiet =
  'inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 ' +
  'disabled:cursor-not-allowed disabled:opacity-50 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'

function ToolButton({ label, shortcut, onClick, disabled, children }: { label: string; shortcut: string; onClick(): void; disabled?: boolean; children: ReactNode }) {
  return (
    <button type="button" className={quiet} onClick={onClick} disabled={disabled} title={`${label} (${shortcut})`} aria-label={label} aria-keyshortcuts={shortcut}>
      {children}
    </button>
  )
}

export interface ToolbarProps {
  canEdit: boolean
  canExecute: boolean
  canFormat: boolean
  dirty: boolean
  saving: boolean
  running: boolean
  hasSelection: boolean
  autocomplete: { on: boolean; available: boolean; toggle(): void }
  autoLimit: { on: boolean; available: boolean; toggle(): void }
  onAddParameter(): void
  onFormat(): void
  onSave(): void
  onExecute(): void
}

/** The row under the editor: parameters, format, autocomplete, LIMIT 1000, then Save and Execute (spec 2 §2). */
export function Toolbar(p: ToolbarProps): JSX.Element {
  // the server cannot know the platform: the Mac's key names come after hydration, so both renders agree
  const [mod, setMod] = useState('Control')
  useEffect(() => setMod(isMac() ? 'Meta' : 'Control'), [])
  const icon = (d: string) => <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d={d} /></svg>
  return (
    <div className="flex flex-wrap items-center gap-1 border-t border-slate-200 bg-slate-50/80 px-2 py-1.5 dark:border-slate-800 dark:bg-slate-900/60">
      {p.canEdit && (
        <ToolButton label={t.addParameter} shortcut={`${mod}+P`} onClick={p.onAddParameter}>
          <span className="font-mono text-xs">{'{{ }}'}</span><span className="hidden lg:inline">{t.addParameter}</span>
        </ToolButton>
      )}
      {p.canEdit && p.canFormat && (
        <ToolButton label={t.formatQuery} shortcut={`${mod}+Shift+F`} onClick={p.onFormat}>
          {icon('M4 6h16M4 12h10M4 18h14')}<span className="hidden lg:inline">{t.formatQuery}</span>
        </ToolButton>
      )}
      <label className={`${quiet} cursor-pointer`} title={p.autocomplete.available ? t.autocomplete : t.autocompleteUnavailable}>
        <input type="checkbox" className="h-3.5 w-3.5 accent-indigo-600" checked={p.autocomplete.on && p.autocomplete.available}
          disabled={!p.autocomplete.available} onChange={p.autocomplete.toggle} />
        {t.autocomplete}
      </label>
      <label className={`${quiet} cursor-pointer ${p.autoLimit.available ? '' : 'opacity-50'}`} title={p.autoLimit.available ? t.autoLimit : t.autoLimitUnavailable}>
        <input type="checkbox" className="h-3.5 w-3.5 accent-indigo-600" checked={p.autoLimit.on && p.autoLimit.available}
          disabled={!p.autoLimit.available || !p.canEdit} onChange={p.autoLimit.toggle} />
        <span className="font-mono text-xs">{t.autoLimit}</span>
      </label>
      <div className="ml-auto flex items-center gap-2">
        {p.canEdit && (
          <button type="button" onClick={p.onSave} disabled={p.saving} title={`${t.save} (${mod}+S)`} aria-keyshortcuts={`${mod}+S`}
            className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 disabled:opacity-60 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700">
            {p.saving ? t.saving : t.save}{p.dirty && !p.saving && <span aria-label="unsaved changes" className="text-indigo-600 dark:text-indigo-400">*</span>}
          </button>
        )}
        <button type="button" onClick={p.onExecute} disabled={!p.canExecute || p.running} title={`${t.execute} (${mod}+Enter)`} aria-keyshortcuts={`${mod}+Enter`}
          className="inline-flex h-8 items-center gap-1.5 rounded-md bg-indigo-600 px-3 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-60">
          {icon('M7 5v14l11-7z')}{p.hasSelection ? t.executeSelected : t.execute}
        </button>
      </div>
    </div>
  )
}
