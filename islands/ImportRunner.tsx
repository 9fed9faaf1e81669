import { useEffect, type JSX } from 'react'
import { importTexts as t, type ImportRunJson } from '../src/shared/import-summary.ts'
import { island } from '../src/shared/island.tsx'
import { api, serverMessage } from './lib/api.ts'
import { FollowedRun } from './lib/import/FollowedRun.tsx'
import { ImportForm } from './lib/import/ImportForm.tsx'
import { initialImport, isActive, latestInstanceRun, POLL_MS, readRun, reduceImport, startImport, type ImportCommand, type ImportEvent } from './lib/import/model.ts'
import { PastRuns } from './lib/import/PastRuns.tsx'
import { useModel, type Dispatch } from './lib/use-model.ts'

async function run(command: ImportCommand, dispatch: Dispatch<ImportEvent>) {
  await dispatch(await startImport(api, command.body, serverMessage))
}

/** /admin/import: start a run against the old instance and watch it, live; past runs below. */
function ImportRunner({ runs }: { runs: ImportRunJson[] }): JSX.Element {
  const [state, dispatch] = useModel(reduceImport, () => initialImport(runs), run)
  const send = (event: ImportEvent) => void dispatch(event)
  const followed = state.run

  // each new value of the run (a read, even a failed one) schedules the next read, until the run ends
  useEffect(() => {
    if (!isActive(followed)) return
    const timer = setTimeout(() => void readRun(api, followed.id).then(dispatch), POLL_MS)
    return () => clearTimeout(timer)
  }, [followed, dispatch])

  const latestId = latestInstanceRun(runs)?.id
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-slate-600 dark:text-slate-400">{t.intro}</p>
      <ImportForm state={state} send={send} />
      <FollowedRun run={followed} />
      <PastRuns runs={runs.filter((r) => r.id !== latestId)} />
    </div>
  )
}

export default island('ImportRunner', ImportRunner)
