import type { JSX } from 'react'

/** A way in through an identity provider, as the login page offers it: where it starts and what its button says. */
export interface ExternalMethod {
  href: string
  label: string
}

const button = 'flex w-full items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700'

/** One button per identity-provider sign-in that is on, above the password form (plain links: they work without script). */
export function ExternalMethodButtons({ methods }: { methods: ExternalMethod[] }): JSX.Element | null {
  if (!methods.length) return null
  return (
    <div className="mb-5 flex flex-col gap-2">
      {methods.map((m) => <a key={m.href} href={m.href} className={button}>{m.label}</a>)}
    </div>
  )
}
