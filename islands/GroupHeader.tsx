import { lazy, Suspense, useEffect, useRef, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashNextPage } from './lib/flash.ts'
import { ui } from './lib/ui.ts'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))

const t = texts.groups

const headingClass = 'min-w-0 truncate text-xl font-semibold text-slate-900 dark:text-slate-100'

/**
 * The heading of a group's pages for an admin, on a group that is not built-in (spec 3 §2 "Groups"): the name,
 * edited in place (Enter or leaving the field saves, Escape cancels, a blank name is ignored, as the server does),
 * and Delete Group, which asks first, then returns to the list where the deletion is announced.
 */
function GroupHeader({ group }: { group: { id: number; name: string } }): JSX.Element {
  const [name, setName] = useState(group.name)
  const [draft, setDraft] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const pencil = useRef<HTMLButtonElement>(null)
  // Escape ends editing through blur too: this keeps that blur from saving
  const cancelled = useRef(false)
  // editing ended from the keyboard (Enter, Escape): the focus goes back to the pencil, not to the page's start
  const refocus = useRef(false)
  const editing = draft !== null

  useEffect(() => {
    if (editing) input.current?.select()
    else if (refocus.current) {
      refocus.current = false
      pencil.current?.focus()
    }
  }, [editing])

  function edit() {
    if (saving) return
    cancelled.current = false
    setDraft(name)
  }

  async function save() {
    const next = (draft ?? '').trim()
    setDraft(null)
    if (cancelled.current || !next || next === name) return
    setSaving(true)
    setName(next)
    try {
      const saved = await api<{ name: string }>('POST', `/api/groups/${group.id}`, { name: next })
      setName(saved.name)
      toast(t.saved)
    } catch (e) {
      setName(name)
      toast((e as Error).message || texts.errors.unknown, 'error')
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    try {
      await api('DELETE', `/api/groups/${group.id}`)
      flashNextPage('group_deleted', '/groups')
      window.location.assign('/groups')
      // stays busy while the list loads
      await new Promise(() => {})
    } catch (e) {
      toast((e as Error).message || texts.errors.unknown, 'error')
      setConfirming(false)
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      {!editing ? (
        <>
          {/* a click on the name edits it, as in the established tool; the pencil button is the keyboard's way */}
          <h1 className={`${headingClass} cursor-text`} onClick={edit} aria-busy={saving || undefined}>{name}</h1>
          <button type="button" ref={pencil} className={ui.iconButton} onClick={edit} aria-label={t.rename} title={t.rename}>
            <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
              <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" />
            </svg>
          </button>
        </>
      ) : (
        <>
          <label htmlFor="group-name" className="sr-only">{t.groupName}</label>
          <input id="group-name" ref={input} maxLength={255} onChange={(e) => setDraft(e.target.value)}
            value={draft ?? ''} onBlur={() => void save()} onKeyDown={(e) => {
              if (e.key !== 'Enter' && e.key !== 'Escape') return
              cancelled.current = e.key === 'Escape'
              refocus.current = true
              e.currentTarget.blur()
            }}
            className={`${ui.input} ${ui.inputBorder} w-auto max-w-full min-w-0 [field-sizing:content] py-1 text-xl font-semibold`} />
        </>
      )}
      <button type="button" className={`${ui.dangerButton} ml-auto min-h-8 px-3 py-1.5`} onClick={() => setConfirming(true)}>{t.deleteGroup}</button>
      <Suspense fallback={null}>
        {confirming && (
          <ConfirmDialog title={t.deleteGroup} body={t.deleteConfirm(name)} confirm={t.delete} busyLabel={t.deleting} cancel={t.cancel}
            onConfirm={remove} onClose={() => setConfirming(false)} />
        )}
      </Suspense>
    </div>
  )
}

export default island('GroupHeader', GroupHeader)
