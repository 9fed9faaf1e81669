import type { JSX } from 'react'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'

/** Spec 2 §4: unknown, ok and triggered in warning, success and danger colours. */
const tone: Record<string, string> = {
  unknown: 'bg-amber-100 text-amber-800 dark:bg-amber-950/60 dark:text-amber-200',
  ok: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200',
  triggered: 'bg-red-100 text-red-800 dark:bg-red-950/60 dark:text-red-200',
}

export function StateBadge({ state }: { state: string }): JSX.Element {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide ${tone[state] ?? tone.unknown}`} data-alert-state={state}>
      {t.stateLabel[state] ?? state}
    </span>
  )
}
