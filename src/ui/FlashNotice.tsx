import type { JSX, ReactNode } from 'react'
import { Icon } from './icons.tsx'

/** A success notice a page shows once, for what the previous page did just before leaving (a deletion, say). */
export function FlashNotice({ children }: { children: ReactNode }): JSX.Element {
  return (
    <div role="status" className="flex items-center gap-2 rounded-md border-l-4 border-emerald-500 bg-white px-4 py-3 text-sm text-slate-800 shadow-sm dark:bg-slate-900 dark:text-slate-100">
      <Icon name="check" className="h-4 w-4 text-emerald-600 dark:text-emerald-400" />{children}
    </div>
  )
}
