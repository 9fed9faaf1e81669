import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { DataSourceLogo } from './lib/DataSourceLogo.tsx'
import type { FormSchema } from './lib/DynamicForm.tsx'
import { Spinner, TypedObjectEditor } from './lib/TypedObjectEditor.tsx'
import { closePath, ui } from './lib/ui.ts'

const TEST_FAILURE_MS = 10_000 // spec 3 §9: the connection-test failure shows for 10 s
const t = texts.dataSources

export interface EditorProps {
  dataSource: { id: number; name: string; type: string; options: Record<string, unknown> }
  /** The type's name and schema; null when this installation has no runner for the type. */
  type: { name: string; configuration_schema: FormSchema } | null
}

/** The data source page (spec 3 §2): the typed-object page (settings form, Save, Delete) plus Test Connection. */
function DataSourceEditor({ dataSource, type }: EditorProps): JSX.Element {
  const [testing, setTesting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    if (!failure) return
    // a test clears the failure before it runs, so each failure gets its own 10 s
    const timer = setTimeout(() => setFailure(null), TEST_FAILURE_MS)
    return () => clearTimeout(timer)
  }, [failure])

  async function test() {
    setTesting(true)
    setFailure(null)
    try {
      const result = await api<{ ok: boolean; message: string }>('POST', `/api/data_sources/${dataSource.id}/test`)
      if (result.ok) toast(t.testSuccess)
      else setFailure(result.message)
    } catch {
      setFailure(t.testUnknown)
    } finally {
      setTesting(false)
    }
  }

  return (
    <TypedObjectEditor object={dataSource} type={type} texts={t} listPath="/data_sources" deletedFlash="data_source_deleted"
      formId="data-source-form" Logo={DataSourceLogo} busy={testing}
      actions={(busy) => (
        <button type="button" className={ui.secondaryButton} disabled={busy} aria-busy={testing || undefined} onClick={test}>
          {testing && <Spinner />}{testing ? t.testing : t.testConnection}
        </button>
      )}>
      {failure && (
        <div role="alert" className={`${ui.alert} flex items-start gap-3`}>
          <p className="min-w-0 flex-1 break-words"><span className="font-semibold">{t.testFailed}</span> {failure}</p>
          <button type="button" aria-label={t.dismiss} className="-m-1 rounded p-1 text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-900/40"
            onClick={() => setFailure(null)}>
            <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
          </button>
        </div>
      )}
    </TypedObjectEditor>
  )
}

export default island('DataSourceEditor', DataSourceEditor)
