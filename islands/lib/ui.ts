/**
 * Class names shared by the settings pages and their islands, so server-rendered parts and hydrated parts look
 * the same (the look follows the home page and the app shell: slate surfaces, indigo actions).
 */
const button =
  'inline-flex min-h-9 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium whitespace-nowrap shadow-sm ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60'

export const ui = {
  primaryButton: `${button} bg-indigo-600 text-white hover:bg-indigo-500`,
  secondaryButton:
    `${button} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700`,
  dangerButton:
    `${button} border border-red-200 bg-white text-red-700 hover:bg-red-50 dark:border-red-900 dark:bg-slate-800 dark:text-red-300 dark:hover:bg-red-950/40`,
  dangerSolidButton: `${button} bg-red-600 text-white hover:bg-red-500`,
  input:
    'block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-2 ' +
    'focus:ring-indigo-500/30 focus:outline-none dark:bg-slate-950 dark:text-slate-100',
  inputBorder: 'border-slate-300 dark:border-slate-700',
  label: 'mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300',
  card: 'rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900',
  link: 'font-medium text-indigo-600 hover:underline dark:text-indigo-400',
  badge: 'rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-300',
  overlay: 'fixed inset-0 z-40 bg-slate-900/50',
  dialog:
    'fixed top-1/2 left-1/2 z-40 flex max-h-[calc(100dvh-2rem)] w-[40rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 ' +
    'flex-col rounded-lg bg-white shadow-xl focus:outline-none dark:bg-slate-900',
  iconButton:
    'rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 ' +
    'dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100',
  alert:
    'rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200',
} as const

/** A close (×) glyph for dialogs. */
export const closePath = 'M6 6l12 12M18 6L6 18'
