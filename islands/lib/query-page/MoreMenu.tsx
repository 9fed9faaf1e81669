import type { JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { usePopover } from '../use-popover.ts'

export interface MenuItem {
  label: string
  onSelect: () => void
  /** A file to download (an export): the item is a plain link, so the browser saves what the server sends. */
  href?: string
  /** Shown, but greyed out with the reason as a tooltip. */
  disabledReason?: string
  danger?: boolean
}

const plain = 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700'

/** The header's More menu: a button and a list that closes on a choice, Escape (focus back on the button) or a click elsewhere. */
export function MoreMenu({ items }: { items: MenuItem[] }): JSX.Element {
  const { open, setOpen, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>()
  return (
    <div ref={root} className="relative">
      <button ref={trigger} type="button" className={`${ui.secondaryButton} px-2.5`} aria-haspopup="menu" aria-expanded={open} aria-label={queryTexts.queryPage.more}
        onClick={() => setOpen((o) => !o)}>
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden="true"><circle cx="5" cy="12" r="1.8" /><circle cx="12" cy="12" r="1.8" /><circle cx="19" cy="12" r="1.8" /></svg>
      </button>
      {open && (
        <ul role="menu" className="absolute right-0 z-30 mt-1 w-56 rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-800">
          {items.map((item) => (
            <li key={item.label} role="none" title={item.disabledReason}>
              {item.href
                ? <a role="menuitem" href={item.href} download onClick={() => setOpen(false)} className={`block w-full px-3 py-1.5 text-left text-sm ${plain}`}>{item.label}</a>
                : (
                <button type="button" role="menuitem" disabled={Boolean(item.disabledReason)} aria-description={item.disabledReason}
                  onClick={() => { setOpen(false); item.onSelect() }}
                  className={`block w-full px-3 py-1.5 text-left text-sm disabled:cursor-not-allowed disabled:text-slate-400 dark:disabled:text-slate-500 ${item.danger ? 'text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950/40' : plain}`}>
                  {item.label}
                </button>
                )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
