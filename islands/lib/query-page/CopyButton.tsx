import { useEffect, useRef, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'

const t = queryTexts.queryPage
const COPY_FEEDBACK_MS = 2000 // spec 2 §9

/** A Copy button that says Copied! or Copy failed for two seconds (spec 2 §4). */
export function CopyButton({ text, label = t.copy }: { text: string; label?: string }): JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), COPY_FEEDBACK_MS)
  }
  return (
    <button type="button" className={`${ui.secondaryButton} min-w-24`} onClick={() => void copy()} aria-live="polite">
      {state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : label}
    </button>
  )
}
