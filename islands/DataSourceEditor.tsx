import { lazy, Suspense, useEffect, useRef, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { DataSourceLogo } from './lib/DataSourceLogo.tsx'
import { DynamicForm, type FormSchema, type FormValues } from './lib/DynamicForm.tsx'
import { flashNextPage } from './lib/flash.ts'
import { closePath, ui } from './lib/ui.ts'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))

const FORM_ID = 'data-source-form'
const TEST_FAILURE_MS = 10_000 // spec 3 §9: the connection-test failure shows for 10 s
const t = texts.dataSources

export interface EditorProps {
  dataSource: { id: number; name: string; type: string; options: Record<string, unknown> }
  /** The type's name and schema; null when this installation has no runner for the type. */
  type: { name: string; configuration_schema: FormSchema } | null
}

function Spinner(): JSX.Element {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4 animate-spin" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity=".25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

/** The data source page (spec 3 §2): its settings form, Save, Test Connection and Delete. */
function DataSourceEditor({ dataSource, type }: EditorProps): JSX.Element {
  const [name, setName] = useState(dataSource.name)
  const [saving, setSaving] = useState(false)
  const [testing, setTesting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const failureTimer = useRef<ReturnType<typeof setTimeout>>(undefined)

  useEffect(() => () => clearTimeout(failureTimer.current), [])

  function showFailure(message: string) {
    clearTimeout(failureTimer.current)
    setFailure(message)
    failureTimer.current = setTimeout(() => setFailure(null), TEST_FAILURE_MS)
  }

  async function save(values: FormValues) {
    setSaving(true)
    try {
      const saved = await api<{ name: string }>('POST', `/api/data_sources/${dataSource.id}`, { ...values, type: dataSource.type })
      setName(saved.name)
      toast(t.saved)
    } catch (e) {
      toast((e as Error).message || t.failedSaving, 'error')
    } finally {
      setSaving(false)
    }
  }

  async function test() {
    setTesting(true)
    clearTimeout(failureTimer.current)
    setFailure(null)
    try {
      const result = await api<{ ok: boolean; message: string }>('POST', `/api/data_sources/${dataSource.id}/test`)
      if (result.ok) toast(t.testSuccess)
      else showFailure(result.message)
    } catch {
      showFailure(t.testUnknown)
    } finally {
      setTesting(false)
    }
  }

  async function remove() {
    try {
      await api('DELETE', `/api/data_sources/${dataSource.id}`)
      flashNextPage('data_source_deleted', '/data_sources')
      window.location.assign('/data_sources')
      // stays busy while the list loads
      await new Promise(() => {})
    } catch (e) {
      toast((e as Error).message || t.failedSaving, 'error')
      setConfirming(false)
    }
  }

  const busy = saving || testing
  return (
    <div className={`${ui.card} mx-auto w-full max-w-xl p-5 sm:p-8`}>
      <div className="mb-6 flex flex-col items-center gap-2 text-center">
        <DataSourceLogo type={dataSource.type} className="h-14 w-14" />
        <h1 className="text-xl font-semibold break-words text-slate-900 dark:text-slate-100">{name}</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">{type?.name ?? dataSource.type}</p>
      </div>

      {type ? (
        <DynamicForm id={FORM_ID} schema={type.configuration_schema} isNew={false} disabled={saving}
          initial={{ name: dataSource.name, options: dataSource.options }} onSubmit={save} />
      ) : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
          {t.typeUnavailable(dataSource.type)}
        </p>
      )}

      <div className="mt-6 flex flex-col gap-3">
        {type && (
          <button type="submit" form={FORM_ID} className={`${ui.primaryButton} w-full`} disabled={busy} aria-busy={saving || undefined}>
            {saving && <Spinner />}{saving ? t.saving : t.save}
          </button>
        )}
        <div className={`grid gap-3 ${type ? 'grid-cols-2' : 'grid-cols-1'}`}>
          <button type="button" className={ui.dangerButton} disabled={busy} onClick={() => setConfirming(true)}>{t.delete}</button>
          {type && (
            <button type="button" className={ui.secondaryButton} disabled={busy} aria-busy={testing || undefined} onClick={test}>
              {testing && <Spinner />}{testing ? t.testing : t.testConnection}
            </button>
          )}
        </div>
        {failure && (
          <div role="alert" className={`${ui.alert} flex items-start gap-3`}>
            <p className="min-w-0 flex-1 break-words"><span className="font-semibold">{t.testFailed}</span> {failure}</p>
            <button type="button" aria-label={t.dismiss} className="-m-1 rounded p-1 text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-900/40"
              onClick={() => { clearTimeout(failureTimer.current); setFailure(null) }}>
              <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
            </button>
          </div>
        )}
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

export default island('DataSourceEditor', DataSourceEditor)
