import * as Dialog from '@radix-ui/react-dialog'
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type JSX, type ReactNode } from 'react'
import { island } from '../src/shared/island.tsx'
import { queryTexts } from '../src/shared/query-texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { ui } from './lib/ui.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))

/** The element of the snippets page that a save or delete replaces with the server's fresh rendering. */
export const SNIPPETS_RESULTS_ID = 'snippets-results'
const MAX_TRIGGER_LENGTH = 255 // as the server checks (src/snippets/service.ts)
const FORM_ID = 'snippet-form'
const t = queryTexts.snippets

export interface SnippetView {
  id: number
  trigger: string
  description: string
  snippet: string
  user: { id: number; name: string } | null
}

interface Viewer {
  id: number
  admin: boolean
  canCreate: boolean
}

type Values = Pick<SnippetView, 'trigger' | 'description' | 'snippet'>
type Errors = Partial<Record<'trigger' | 'snippet', string>>

/** Spec 2 §5: trigger and snippet are required (blank counts as empty). */
function check(v: Values): Errors {
  const errors: Errors = {}
  if (!v.trigger.trim()) errors.trigger = t.required
  if (!v.snippet.trim()) errors.snippet = t.required
  return errors
}

/**
 * Fetch this page's list again and swap in its results, so the table shows the change while the toast stays on
 * screen. Anything unexpected (signed out, an error page) opens the list address itself.
 */
async function refreshList(listHref: string) {
  try {
    const res = await fetch(listHref, { headers: { Accept: 'text/html' }, credentials: 'same-origin' })
    const fresh = res.ok && !res.redirected
      ? new DOMParser().parseFromString(await res.text(), 'text/html').getElementById(SNIPPETS_RESULTS_ID) : null
    const current = document.getElementById(SNIPPETS_RESULTS_ID)
    if (!fresh || !current) return window.location.assign(listHref)
    current.replaceWith(document.importNode(fresh, true))
  } catch {
    window.location.assign(listHref)
  }
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }): JSX.Element {
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {children}
      {hint && !error && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      {error && <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  )
}

/** The form inside the dialog; mounted afresh for every opening, so it starts from the snippet as it is now. */
function SnippetForm({ snippet, editable, saving, onSave }: {
  snippet: SnippetView | null; editable: boolean; saving: boolean; onSave: (values: Values) => void
}): JSX.Element {
  const [values, setValues] = useState<Values>({ trigger: snippet?.trigger ?? '', description: snippet?.description ?? '', snippet: snippet?.snippet ?? '' })
  const [errors, setErrors] = useState<Errors>({})
  const [submitted, setSubmitted] = useState(false)
  const uid = useId()
  const ids = { trigger: `${uid}-trigger`, description: `${uid}-description`, snippet: `${uid}-snippet` }

  function change(key: keyof Values, value: string) {
    const next = { ...values, [key]: value }
    setValues(next)
    // errors show after the first attempt to save, then follow the typing
    if (submitted) setErrors(check(next))
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!editable) return
    setSubmitted(true)
    const found = check(values)
    setErrors(found)
    const first = (['trigger', 'snippet'] as const).find((key) => found[key])
    if (first) return document.getElementById(ids[first])?.focus()
    onSave(values)
  }

  const described = (key: 'trigger' | 'snippet', hint = false) =>
    errors[key] ? `${ids[key]}-error` : hint && editable ? `${ids[key]}-hint` : undefined
  const field = (key: keyof Values) => ({
    id: ids[key], name: key, value: values[key], readOnly: !editable, disabled: saving, spellCheck: false, autoComplete: 'off',
    className: `${ui.input} ${key !== 'description' && errors[key] ? 'border-red-500 dark:border-red-500' : ui.inputBorder} read-only:bg-slate-50 dark:read-only:bg-slate-900`,
  })
  return (
    <form id={FORM_ID} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <Field id={ids.trigger} label={t.trigger} error={errors.trigger} hint={editable ? t.triggerHint : undefined}>
        <input {...field('trigger')} type="text" maxLength={MAX_TRIGGER_LENGTH} aria-required={editable || undefined}
          aria-invalid={errors.trigger ? true : undefined} aria-describedby={described('trigger', true)}
          onChange={(e) => change('trigger', e.target.value)} />
      </Field>
      <Field id={ids.description} label={t.description}>
        <input {...field('description')} type="text" onChange={(e) => change('description', e.target.value)} />
      </Field>
      <Field id={ids.snippet} label={t.snippet} error={errors.snippet}>
        <textarea {...field('snippet')} rows={10} wrap="off" aria-required={editable || undefined}
          aria-invalid={errors.snippet ? true : undefined} aria-describedby={described('snippet')}
          onChange={(e) => change('snippet', e.target.value)}
          className={`${field('snippet').className} min-h-40 resize-y font-mono text-[13px] leading-5`} />
      </Field>
    </form>
  )
}

/**
 * The snippet dialog of the query snippets page (spec 2 §2, §6): create, edit and delete for the author or an admin,
 * read-only with Close for everyone else. Open at load on /query_snippets/new and /query_snippets/{id}; on the list,
 * the snippet links open it in place (their addresses still work without script or in a new tab).
 */
function SnippetDialog({ opened, listHref, viewer }: { opened: SnippetView | 'new' | null; listHref: string; viewer: Viewer }): JSX.Element {
  const [current, setCurrent] = useState<SnippetView | 'new' | null>(opened)
  const [openings, setOpenings] = useState(0)
  const [saving, setSaving] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const closeButton = useRef<HTMLButtonElement>(null)

  const snippet = current === 'new' ? null : current
  const editable = current === 'new' ? viewer.canCreate : !!snippet && (viewer.admin || snippet.user?.id === viewer.id)

  function show(next: SnippetView | 'new', href: string) {
    setCurrent(next)
    setOpenings((n) => n + 1)
    setFailure(null)
    // the address names the open dialog, as if it had been loaded; closing puts the list's back
    const url = new URL(href, window.location.href)
    window.history.replaceState(window.history.state, '', url.pathname + url.search)
  }

  function close() {
    setCurrent(null)
    setConfirming(false)
    window.history.replaceState(window.history.state, '', listHref)
  }

  useEffect(() => {
    async function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-snippet-id]')
      if (!link) return
      event.preventDefault()
      const id = link.dataset.snippetId
      if (id === 'new') return show('new', link.href)
      try {
        show(await api<SnippetView>('GET', `/api/query_snippets/${id}`), link.href)
      } catch (error) {
        toast((error as Error).message || t.failedLoading, 'error')
      }
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [])

  async function save(values: Values) {
    setSaving(true)
    setFailure(null)
    try {
      const body = { trigger: values.trigger.trim(), description: values.description, snippet: values.snippet }
      await api('POST', snippet ? `/api/query_snippets/${snippet.id}` : '/api/query_snippets', body)
      toast(t.saved)
      close()
      await refreshList(listHref)
    } catch (error) {
      // the toast is the spec's; the dialog keeps the server's reason beside the form (a taken trigger, say)
      setFailure((error as Error).message || null)
      toast(t.failedSaving, 'error')
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    if (!snippet) return
    try {
      await api('DELETE', `/api/query_snippets/${snippet.id}`)
      toast(t.deleted)
      close()
      await refreshList(listHref)
    } catch {
      toast(t.failedDeleting, 'error')
      setConfirming(false)
    }
  }

  const title = current === 'new' ? t.createTitle : editable ? t.editTitle : t.viewTitle
  return (
    <Dialog.Root open={current !== null} onOpenChange={(open) => !open && !saving && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={ui.dialog} aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            // straight into the first field, or onto Close when there is nothing to change, rather than onto the ×
            event.preventDefault()
            if (editable) document.querySelector<HTMLElement>(`#${FORM_ID} input`)?.focus()
            else closeButton.current?.focus()
          }}>
          <DialogHeader title={title} closeLabel={t.close} busy={saving} />
          <div className="min-h-0 flex-1 overflow-y-auto p-5">
            {!editable && <p role="note" className="mb-4 text-sm text-slate-600 dark:text-slate-400">{t.readOnly}</p>}
            {failure && <div role="alert" className={`${ui.alert} mb-4`}>{failure}</div>}
            {current !== null && <SnippetForm key={openings} snippet={snippet} editable={editable} saving={saving} onSave={save} />}
            {snippet && (
              <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">{t.createdBy}: {snippet.user?.name ?? t.deletedUser}</p>
            )}
          </div>
          <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-3 sm:flex-row sm:items-center dark:border-slate-800">
            {editable && snippet && (
              <button type="button" className={`${ui.dangerButton} sm:mr-auto`} disabled={saving} onClick={() => setConfirming(true)}>{t.delete}</button>
            )}
            <div className="flex flex-col-reverse gap-2 sm:ml-auto sm:flex-row">
              <Dialog.Close ref={closeButton} className={ui.secondaryButton} disabled={saving}>{editable ? t.cancel : t.close}</Dialog.Close>
              {editable && (
                <button type="submit" form={FORM_ID} className={ui.primaryButton} disabled={saving} aria-busy={saving || undefined}>
                  {saving ? t.saving : snippet ? t.save : t.create}
                </button>
              )}
            </div>
          </div>
          {confirming && snippet && (
            <Suspense fallback={null}>
              <ConfirmDialog title={t.deleteTitle} body={t.deleteConfirm(snippet.trigger)} confirm={t.delete} busyLabel={t.deleting}
                cancel={t.cancel} onConfirm={remove} onClose={() => setConfirming(false)} />
            </Suspense>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('SnippetDialog', SnippetDialog)
