import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { DataSourceLogo } from './lib/DataSourceLogo.tsx'
import type { FormSchema } from './lib/DynamicForm.tsx'
import { TypedObjectEditor } from './lib/TypedObjectEditor.tsx'
import { TestButton, TestFailure } from './lib/TypedObjectTest.tsx'
import { ui } from './lib/ui.ts'

const TEST_FAILURE_MS = 10_000 // spec 3 §9: the connection-test failure shows for 10 s
const t = texts.dataSources

export interface EditorProps {
  dataSource: { id: number; name: string; type: string; options: Record<string, unknown> }
  /** The type's name and schema; null when this installation has no runner for the type. */
  type: { name: string; configuration_schema: FormSchema } | null
  /** The engine's setup guide, for the types that have one. */
  setupUrl?: string
}

/** The data source page (spec 3 §2): the typed-object page (settings form, Save, Delete) plus Test Connection. */
function DataSourceEditor({ dataSource, type, setupUrl }: EditorProps): JSX.Element {
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
      help={type && setupUrl && (
        <a href={setupUrl} target="_blank" rel="noopener noreferrer" className={`${ui.link} text-sm`}>
          {t.setupInstructions(type.name)}
        </a>
      )}
      actions={(busy) => (
        <TestButton testing={testing} disabled={busy} label={t.testConnection} busyLabel={t.testing} onClick={test} />
      )}>
      {failure && <TestFailure title={t.testFailed} message={failure} dismiss={t.dismiss} onDismiss={() => setFailure(null)} />}
    </TypedObjectEditor>
  )
}

export default island('DataSourceEditor', DataSourceEditor)
