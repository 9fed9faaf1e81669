import type { JSX } from 'react'
import { texts } from '../shared/texts.ts'
import { Logo } from './icons.tsx'

export function errorText(status: number): string {
  if (status === 404) return texts.errors.notFound
  if (status === 401 || status === 403) return texts.errors.forbidden
  if (status === 413) return texts.errors.tooLarge
  return texts.errors.generic
}

/** The error page (spec 1 §2): one text per kind of failure, no script. */
export function ErrorPage({ status }: { status: number }): JSX.Element {
  return (
    <main className="min-h-screen flex items-center justify-center p-6">
      <div className="max-w-md text-center">
        <Logo className="mx-auto h-10 w-10" />
        <p className="mt-8 text-sm font-semibold tracking-wide text-indigo-600 dark:text-indigo-400" aria-hidden="true">{status}</p>
        <h1 className="mt-2 text-xl font-semibold text-balance text-slate-900 dark:text-slate-100">{errorText(status)}</h1>
        <a href="/" className="mt-6 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
          {texts.errors.goHome}
        </a>
      </div>
    </main>
  )
}
