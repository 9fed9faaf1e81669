import { lazy, Suspense, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import {
  addSource, candidates, initialGroupSources, reduceGroupSources, removeSource, saveAccess,
  type GroupSourcesCommand, type GroupSourcesEvent, type Member, type Source,
} from './lib/group-data-sources/model.ts'
import { SourceRow } from './lib/group-data-sources/SourceRow.tsx'
import { ui } from './lib/ui.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'

const AddDataSourcesDialog = lazy(() => import('./lib/AddDataSourcesDialog.tsx'))

const t = texts.groups

/** An add's failure shows the error's own message (the server's, else the API's fallback text). */
const messageOf = (error: unknown) => (error as Error).message

async function run(command: GroupSourcesCommand, dispatch: Dispatch<GroupSourcesEvent>) {
  switch (command.kind) {
    case 'add': return dispatch(await addSource(api, command.groupId, command.id, messageOf))
    case 'setAccess': return dispatch(await saveAccess(api, command))
    case 'remove': return dispatch(await removeSource(api, command.groupId, command.id))
    case 'toast': return toast(command.message, 'error')
  }
}

/** The data sources of a group, with their access level, Remove, and an Add Data Sources dialog (spec 3 §2). */
function GroupDataSources({ group, sources, all }: { group: { id: number; name: string }; sources: Member[]; all: Source[] }): JSX.Element {
  const [state, dispatch] = useModel(reduceGroupSources, () => initialGroupSources(group.id, sources, all), run)
  const send = (event: GroupSourcesEvent) => void dispatch(event)
  const { members } = state
  return (
    <section aria-labelledby="group-data-sources-title" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="group-data-sources-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.dataSources}</h2>
        <button type="button" className={ui.primaryButton} onClick={() => send({ type: 'openAdd' })}>
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
          {t.addDataSources}
        </button>
      </div>
      {members.length === 0 ? (
        <p className={`${ui.card} px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400`}>{t.emptyDataSources}</p>
      ) : (
        <ul className={`${ui.card} divide-y divide-slate-100 dark:divide-slate-800`} aria-labelledby="group-data-sources-title">
          {members.map((m) => <SourceRow key={m.id} source={m} busy={state.busy.includes(m.id)} send={send} />)}
        </ul>
      )}
      {state.adding && (
        <Suspense fallback={null}>
          <AddDataSourcesDialog candidates={candidates(state)} onAdd={(ids) => dispatch({ type: 'add', ids })} onClose={() => send({ type: 'closeAdd' })} />
        </Suspense>
      )}
    </section>
  )
}

export default island('GroupDataSources', GroupDataSources)
