import { lazy, Suspense, useState, type ComponentType, type JSX, type ReactNode } from 'react'
import { api } from './api.ts'
import { toast } from './bus.ts'
import { DynamicForm, type FormSchema, type FormValues } from './DynamicForm.tsx'
import { flashNextPage, type FlashName } from './flash.ts'
import { ui } from './ui.ts'

const ConfirmDialog = lazy(() => import('./ConfirmDialog.tsx'))

/** The small turning ring a busy button shows before its label (the kind's own actions use it too). */
export function Spinner(): JSX.Element {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4 animate-spin" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity=".25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

/** The page's words, which name what it edits ("Delete Data Source", "… delete the data source “x”?" …). */
export interface TypedObjectEditorTexts {
  save: string
  saving: string
  saved: string
  failedSaving: string
  delete: string
  deleting: string
  deleteTitle: string
  deleteConfirm(name: string): string
  cancel: string
  typeUnavailable(type: string): string
}

export interface TypedObject {
  id: number
  name: string
  type: string
  options: Record<string, unknown>
}

export interface TypedObjectEditorProps {
  object: TypedObject
  /** The type's name and schema; null when this installation does not know the type (it can still be deleted). */
  type: { name: string; configuration_schema: FormSchema } | null
  texts: TypedObjectEditorTexts
  /** The list page, where Delete goes (with `deletedFlash` shown there once); the object's API address is
   * `/api${listPath}/${id}`, where Save POSTs `{name, options, type}` and Delete sends DELETE. */
  listPath: string
  deletedFlash: FlashName
  /** The form element's id (the Save button points at it). */
  formId: string
  /** A type's mark, above the name. */
  Logo: ComponentType<{ type: string; className?: string }>
  /** The kind's own work under way (a connection test): Save and Delete wait for it. */
  busy?: boolean
  /** The kind's own actions beside Delete, shown when the type is known; told whether the page is busy (saving, or
   * `busy`), when they should be disabled too. */
  actions?: (busy?: boolean) => ReactNode
  /** Shown under the actions (a failed connection test). */
  children?: ReactNode
  /** Shown under the type's name (a link to setup instructions). */
  help?: ReactNode
}

/**
 * The page of one existing object of a kind made from a list of types (spec 3 §2 and §4: a data source, an alert
 * destination): its logo, name and type, the schema-driven form with Save, and Delete after confirmation. Secret
 * fields arrive as the mask and are sent back as the mask unless edited, which the server reads as "unchanged".
 * Everything that names the kind comes in as props.
 */
export function TypedObjectEditor({
  object, type, texts: t, listPath, deletedFlash, formId, Logo, busy, actions, children, help,
}: TypedObjectEditorProps): JSX.Element {
  // what the server stored, as it answered the last save: the form starts again from it, so a secret just saved
  // shows as the mask (never as typed) and every field shows the value kept
  const [stored, setStored] = useState({ object, saves: 0 })
  const name = stored.object.name
  const [saving, setSaving] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const url = `/api${listPath}/${object.id}`
  const working = saving || busy
  const fail = (e: unknown) => toast((e as Error).message || t.failedSaving, 'error')

  async function save(values: FormValues) {
    setSaving(true)
    try {
      const saved = await api<{ name: string; options?: Record<string, unknown> }>('POST', url, { ...values, type: object.type })
      setStored((s) => ({ object: { ...s.object, name: saved.name, options: saved.options ?? s.object.options }, saves: s.saves + 1 }))
      toast(t.saved)
    } catch (e) {
      fail(e)
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    try {
      await api('DELETE', url)
      flashNextPage(deletedFlash, listPath)
      window.location.assign(listPath)
      // stays busy while the list loads
      await new Promise(() => {})
    } catch (e) {
      fail(e)
      setConfirming(false)
    }
  }

  const extra = type && actions?.(working)
  return (
    <div className={`${ui.card} mx-auto w-full max-w-xl p-5 sm:p-8`}>
      <div className="mb-6 flex flex-col items-center gap-2 text-center">
        <Logo type={object.type} className="h-14 w-14" />
        <h1 className="text-xl font-semibold break-words text-slate-900 dark:text-slate-100">{name}</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">{type?.name ?? object.type}</p>
        {help}
      </div>

      {type ? (
        <DynamicForm key={stored.saves} id={formId} schema={type.configuration_schema} isNew={false} disabled={saving}
          initial={stored.object} onSubmit={save} />
      ) : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
          {t.typeUnavailable(object.type)}
        </p>
      )}

      <div className="mt-6 flex flex-col gap-3">
        {type && (
          <button type="submit" form={formId} className={`${ui.primaryButton} w-full`} disabled={working} aria-busy={saving || undefined}>
            {saving && <Spinner />}{saving ? t.saving : t.save}
          </button>
        )}
        <div className={`grid gap-3 ${extra ? 'grid-cols-2' : 'grid-cols-1'}`}>
          <button type="button" className={ui.dangerButton} disabled={working} onClick={() => setConfirming(true)}>{t.delete}</button>
          {extra}
        </div>
        {children}
      </div>

      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog title={t.deleteTitle} body={t.deleteConfirm(name)} confirm={t.delete} busyLabel={t.deleting} cancel={t.cancel}
            onConfirm={remove} onClose={() => setConfirming(false)} />
        </Suspense>
      )}
    </div>
  )
}
