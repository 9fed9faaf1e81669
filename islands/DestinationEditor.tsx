import { useState, type JSX } from 'react'
import { destinationTexts as t } from '../src/shared/destination-texts.ts'
import { island } from '../src/shared/island.tsx'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { DestinationIcon } from './lib/DestinationIcon.tsx'
import type { FormSchema } from './lib/DynamicForm.tsx'
import { TypedObjectEditor } from './lib/TypedObjectEditor.tsx'
import { TestButton, TestFailure } from './lib/TypedObjectTest.tsx'

export interface DestinationEditorProps {
  destination: { id: number; name: string; type: string; options: Record<string, unknown> }
  /** The type's name and schema; null when this installation has no such type. */
  type: { name: string; configuration_schema: FormSchema } | null
}

interface TestAnswer {
  message: string
  status: number | null
  detail: string
  templateError?: string
}

/**
 * An alert destination's page (spec 3 §2): the typed-object page (settings form, Save, Delete) plus Send Test, which
 * sends a sample notification and shows what the service answered, or why it failed.
 */
function DestinationEditor({ destination, type }: DestinationEditorProps): JSX.Element {
  const [testing, setTesting] = useState(false)
  const [answer, setAnswer] = useState<TestAnswer | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  async function test() {
    setTesting(true)
    setFailure(null)
    setAnswer(null)
    try {
      const result = await api<TestAnswer>('POST', `/api/destinations/${destination.id}/test`)
      setAnswer(result)
      toast(t.testSent)
    } catch (e) {
      setFailure((e as Error).message || t.testUnknown)
    } finally {
      setTesting(false)
    }
  }

  return (
    <TypedObjectEditor object={destination} type={type} texts={t} listPath="/destinations" deletedFlash="destination_deleted"
      formId="destination-form" Logo={DestinationIcon} busy={testing}
      actions={(busy) => (
        <TestButton testing={testing} disabled={busy} label={t.sendTest} busyLabel={t.sendingTest} onClick={test} />
      )}>
      {answer && (
        <div role="status" data-test-answer="" className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-100">
          <p className="font-semibold">{answer.message}{answer.status !== null && <> ({t.testStatus(answer.status)})</>}</p>
          {answer.detail && <p className="mt-1 break-words"><span className="font-medium">{t.testAnswer}</span> <code className="break-all">{answer.detail}</code></p>}
          {answer.templateError && <p className="mt-1 break-words">{answer.templateError}</p>}
        </div>
      )}
      {failure && <TestFailure title={t.testFailed} message={failure} dismiss={t.dismiss} onDismiss={() => setFailure(null)} />}
    </TypedObjectEditor>
  )
}

export default island('DestinationEditor', DestinationEditor)
