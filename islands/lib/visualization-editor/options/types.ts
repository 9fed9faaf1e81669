/** What every option editor receives, and the tabs it hands back to the dialog. */
import type { ReactNode } from 'react'
import type { EditorResult, Options } from '../model.ts'

export interface OptionProps {
  options: Options
  /** The result's column names, in order. */
  columns: readonly string[]
  /** The numeric ones among them. */
  numeric: readonly string[]
  /** The result itself, for editors that show what the renderer infers from its rows; null while there is none. */
  result?: EditorResult | null
  /** Set (or with `undefined`, remove) the option at `path`. */
  set: (path: readonly string[], value: unknown) => void
}

export interface OptionTab {
  id: string
  label: string
  content: ReactNode
}
