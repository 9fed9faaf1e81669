import { lazy, Suspense, type JSX } from 'react'
import type { ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import type { QueryChanges } from '../query-page/types.ts'
import type { EditorEvent, EditorState, EditorView } from './model.ts'

// the dialogs bring Radix; each loads only when it first opens
const SaveConflictDialog = lazy(() => import('../editor/SaveConflictDialog.tsx').then((m) => ({ default: m.SaveConflictDialog })))
const AddParameterDialog = lazy(() => import('../parameters/AddParameterDialog.tsx').then((m) => ({ default: m.AddParameterDialog })))

/**
 * The editor's dialogs, each drawn only while open: a parameter's settings, and the conflict of a save refused
 * because the query changed meanwhile (spec 2 §8), the editor's own or the header's.
 */
export function EditorDialogs({ state, view, overwrite, header, send }: {
  state: EditorState
  view: EditorView
  /** The editor's refused save, sent again without a version. */
  overwrite(): Promise<void>
  header: { conflict: QueryChanges | null; dismissConflict(): void; overwrite(): Promise<void> }
  send(event: EditorEvent): void
}): JSX.Element {
  return (
    <>
      {state.parameterDialog && (
        <Suspense fallback={null}>
          <AddParameterDialog definition={state.parameterDialog.definition} names={view.definitions.map((d) => d.name)}
            onSave={(definition: ParameterDefinition) => send({ type: 'parameterSaved', definition })} onClose={() => send({ type: 'closeParameterDialog' })} />
        </Suspense>
      )}
      {state.conflict && (
        <Suspense fallback={null}>
          <SaveConflictDialog canOverwrite={state.canEdit} onClose={() => send({ type: 'dismissConflict' })} onOverwrite={overwrite} />
        </Suspense>
      )}
      {header.conflict && (
        <Suspense fallback={null}>
          <SaveConflictDialog canOverwrite={state.canEdit} onClose={header.dismissConflict} onOverwrite={header.overwrite} />
        </Suspense>
      )}
    </>
  )
}
