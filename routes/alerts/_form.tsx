import AlertForm from '../../islands/AlertForm.tsx'
import type { AlertFormJson } from '../../src/shared/api/alerts.ts'

export function FormPage({ title, alert }: { title: string; alert: AlertFormJson | null }) {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{title}</h1>
      <AlertForm alert={alert} />
    </div>
  )
}
