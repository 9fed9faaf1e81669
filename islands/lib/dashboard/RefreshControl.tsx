import { useEffect, useState, type JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import { refreshDashboard } from '../bus.ts'
import { ui } from '../ui.ts'
import { popoverPanel, usePopover } from '../use-popover.ts'
import { clampRefresh, durationLabel, setAddressFlag } from './address.ts'

const t = dashboardTexts.header

/**
 * Refresh and the auto-refresh choice (spec 2 §2, §4). Both only ask the widgets to refresh, through a window event:
 * the button for a fresh run (maxAge 0), each tick of the interval for results no older than the interval, so many
 * viewers of one dashboard share a run instead of each starting their own. The interval lives in the address.
 */
export function RefreshControl({ intervals, initial }: { intervals: number[]; initial: number | null }): JSX.Element {
  const choices = [...new Set(intervals.map((n) => clampRefresh(n, intervals)))].sort((a, b) => a - b)
  const [every, setEvery] = useState(() => (initial === null ? null : clampRefresh(initial, intervals)))
  const { open, setOpen, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>()

  useEffect(() => {
    // an address asking for less than the minimum shows what actually runs
    if (initial !== null && every !== null && every !== initial) setAddressFlag('refresh', String(every))
  }, [])

  useEffect(() => {
    if (every === null) return
    const timer = setInterval(() => refreshDashboard(every), every * 1000)
    return () => clearInterval(timer)
  }, [every])

  function choose(seconds: number | null) {
    setEvery(seconds)
    setAddressFlag('refresh', seconds === null ? null : String(seconds))
    setOpen(false)
    trigger.current?.focus()
  }

  return (
    <div ref={root} className="relative flex">
      <button type="button" className={`${ui.secondaryButton} rounded-r-none`} onClick={() => refreshDashboard(0)}
        aria-label={every === null ? undefined : t.refreshingEvery(durationLabel(every))}>
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
          <path d="M20 11a8 8 0 1 0-2.3 5.7M20 5v6h-6" />
        </svg>
        {every === null ? t.refresh : durationLabel(every)}
      </button>
      <button ref={trigger} type="button" className={`${ui.secondaryButton} -ml-px rounded-l-none px-2`} aria-haspopup="menu" aria-expanded={open}
        aria-label={t.autoRefresh} onClick={() => setOpen((o) => !o)}>
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="m6 9 6 6 6-6" /></svg>
      </button>
      {open && (
        <ul role="menu" aria-label={t.autoRefresh} className={`${popoverPanel} right-0 left-auto w-48`}>
          {[null, ...choices].map((seconds) => (
            <li key={seconds ?? 'off'} role="none">
              <button type="button" role="menuitemradio" aria-checked={every === seconds} onClick={() => choose(seconds)}
                className="block w-full px-3 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 aria-checked:font-semibold aria-checked:text-indigo-700 dark:text-slate-200 dark:hover:bg-slate-700 dark:aria-checked:text-indigo-300">
                {seconds === null ? t.autoRefreshOff : t.every(durationLabel(seconds))}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
