import type { JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { SchemaBrowser } from '../editor/SchemaBrowser.tsx'
import { ui } from '../ui.ts'
import type { EditorEvent, EditorState, EditorView } from './model.ts'
import type { EditorSchema } from './use-editor-schema.ts'

const t = queryTexts.editor

/** The editor's left panel: the data source, its schema, and the query's description (spec 2 §2). */
export function SourcePanel({ state, view, schema, onInsert, send }: {
  state: EditorState
  view: EditorView
  schema: EditorSchema
  onInsert(name: string): void
  send(event: EditorEvent): void
}): JSX.Element {
  const { canEdit } = state
  return (
    // on a phone the panel dissolves (display: contents), so the description can go below the results
    <aside className="contents md:flex md:w-64 md:shrink-0 md:flex-col md:gap-3 lg:w-72">
      <div>
        <label htmlFor="data-source" className={ui.label}>{t.dataSource}</label>
        <select id="data-source" value={state.dataSourceId ?? ''} disabled={!canEdit} onChange={(e) => send({ type: 'chooseSource', id: Number(e.target.value) })}
          className={`${ui.input} ${ui.inputBorder} py-1.5`}>
          {view.offered.map((ds) => <option key={ds.id} value={ds.id}>{ds.name}</option>)}
        </select>
      </div>
      <div className="hidden min-h-0 flex-1 md:flex">
        <SchemaBrowser schema={schema.schema} loading={schema.loading} onInsert={onInsert} onRefresh={schema.refresh}
          {...(schema.databases && { databases: schema.databases, onExpand: schema.onExpand })} />
      </div>
      <div className="order-last md:order-none">
        <label htmlFor="query-description" className={ui.label}>{t.description}</label>
        <textarea id="query-description" rows={3} value={state.description} onChange={(e) => send({ type: 'edit', change: { description: e.target.value } })}
          readOnly={!canEdit} placeholder={canEdit ? t.descriptionPlaceholder : ''} className={`${ui.input} ${ui.inputBorder} resize-y py-1.5`} />
      </div>
    </aside>
  )
}
