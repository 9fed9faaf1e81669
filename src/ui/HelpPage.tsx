import type { JSX } from 'react'

const topics: { title: string; body: string }[] = [
  { title: 'Queries', body: 'Write SQL against a data source, add {{ parameters }} for values people choose, and run it with Ctrl/Cmd+Enter. Results are kept, so a dashboard can show them without running the query again.' },
  { title: 'Visualizations', body: 'Each query has a table of its results and can have charts, counters, maps and more. Add one from the query page.' },
  { title: 'Dashboards', body: 'Arrange visualizations and text on a grid of six columns. Dashboards can be shared publicly by link or embedded in another site.' },
  { title: 'Schedules and alerts', body: 'A query can refresh on a schedule. An alert watches a query result and notifies its destinations when a value crosses a threshold.' },
  { title: 'API', body: 'Every page is built on a JSON API under /api. Call it with your API key, from your profile: send it as the header "Authorization: Key <your key>".' },
]

/** The help page: short answers, no script. */
export function HelpPage({ embedded }: { embedded: boolean }): JSX.Element {
  return (
    <main className={`mx-auto max-w-2xl p-6 text-slate-800 dark:text-slate-200 ${embedded ? '' : 'py-12'}`}>
      <h1 className="text-xl font-semibold">Sightline help</h1>
      {topics.map((t) => (
        <section key={t.title} className="mt-6">
          <h2 className="text-base font-semibold">{t.title}</h2>
          <p className="mt-1 text-sm leading-6 text-slate-600 dark:text-slate-400">{t.body}</p>
        </section>
      ))}
      {!embedded && <p className="mt-8 text-sm"><a className="text-indigo-600 hover:underline dark:text-indigo-400" href="/">← Home</a></p>}
    </main>
  )
}
