import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useState, type ComponentType, type JSX } from 'react'
import type { TypeJson } from '../../src/shared/configuration-schema.ts'
import { api } from './api.ts'
import { DynamicForm, type FormValues } from './DynamicForm.tsx'
import { closePath, ui } from './ui.ts'

/** The dialog's words, which name what it creates ("Create a New Data Source", "Search data source types" …). */
export interface CreateByTypeTexts {
  createTitle: string
  close: string
  steps: string
  typeSelection: string
  configuration: string
  done: string
  searchTypes: string
  searchPlaceholder: string
  noTypeMatches: string
  deprecated: string
  previous: string
  create: string
  creating: string
  created: string
  failedSaving: string
}

export interface CreateByTypeDialogProps {
  /** The kind's `/types` answer: what the first step offers, each with the schema of its form. */
  types: TypeJson[]
  texts: CreateByTypeTexts
  /** Where `{name, type, options}` is POSTed; the answer carries the new id. */
  createUrl: string
  /** The list page: dismissing goes back to it, and the new thing's page is `${listPath}/${id}`. */
  listPath: string
  /** A type's mark, beside its name. */
  Logo: ComponentType<{ type: string; className?: string }>
}

type Step = 'type' | 'config' | 'done'

const FORM_ID = 'create-by-type-form'
const DONE_PAUSE_MS = 600

function Steps({ step, t }: { step: Step; t: CreateByTypeTexts }): JSX.Element {
  const steps: [Step, string][] = [['type', t.typeSelection], ['config', t.configuration], ['done', t.done]]
  const at = steps.findIndex(([s]) => s === step)
  return (
    <ol aria-label={t.steps} className="flex items-center gap-2 border-b border-slate-200 px-5 py-3 text-xs font-medium sm:gap-3 sm:text-sm dark:border-slate-800">
      {steps.map(([key, label], i) => {
        const done = i < at || step === 'done'
        const current = i === at
        return (
          <li key={key} aria-current={current ? 'step' : undefined} className="flex min-w-0 items-center gap-2">
            {i > 0 && <span aria-hidden="true" className={`h-px w-4 sm:w-8 ${i <= at ? 'bg-indigo-400' : 'bg-slate-300 dark:bg-slate-700'}`} />}
            <span aria-hidden="true" className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs ${done
              ? 'border-indigo-600 bg-indigo-600 text-white'
              : current ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300' : 'border-slate-300 text-slate-500 dark:border-slate-600 dark:text-slate-400'}`}>
              {done
                ? <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round" strokeLinejoin="round"><path d="M5 12l5 5L20 7" /></svg>
                : i + 1}
            </span>
            {/* on a phone only the current step is named; the others are numbers (and named to screen readers) */}
            <span className={`truncate ${current ? 'text-slate-900 dark:text-slate-100' : 'sr-only text-slate-500 sm:not-sr-only dark:text-slate-400'}`}>{label}</span>
          </li>
        )
      })}
    </ol>
  )
}

/**
 * The create dialog of a kind made from a list of types (spec 3 §2 and §4: data sources, and alert destinations,
 * which follow the same pattern): Type Selection, Configuration, Done. It opens at once; dismissing it goes back to
 * the list, creating goes to the new thing's page. Everything that names the kind comes in as props.
 */
export function CreateByTypeDialog({ types, texts: t, createUrl, listPath, Logo }: CreateByTypeDialogProps): JSX.Element {
  const [open, setOpen] = useState(true)
  const [step, setStep] = useState<Step>('type')
  const [selected, setSelected] = useState<TypeJson | null>(null)
  const [query, setQuery] = useState('')
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [createdId, setCreatedId] = useState<number | null>(null)
  const searchId = useId()

  useEffect(() => {
    if (createdId === null) return
    // long enough to see the Done step, short enough not to wait for it
    const timer = setTimeout(() => window.location.assign(`${listPath}/${createdId}`), DONE_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [createdId, listPath])

  function dismiss() {
    if (saving || step === 'done') return
    setOpen(false)
    window.location.assign(listPath)
  }

  function choose(type: TypeJson) {
    setSelected(type)
    setError(null)
    setStep('config')
  }

  async function create(values: FormValues) {
    if (!selected) return
    setSaving(true)
    setError(null)
    try {
      const created = await api<{ id: number }>('POST', createUrl, { ...values, type: selected.type })
      setStep('done')
      setCreatedId(created.id)
    } catch (e) {
      setError((e as Error).message || t.failedSaving)
    } finally {
      setSaving(false)
    }
  }

  const needle = query.trim().toLowerCase()
  const shown = types.filter((type) => type.name.toLowerCase().includes(needle))

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && dismiss()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} ${step === 'type' ? 'min-h-[26rem]' : ''}`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            // the search box rather than the close button
            e.preventDefault()
            document.getElementById(searchId)?.focus()
          }}>
          <div className="flex items-center justify-between gap-4 px-5 pt-4 pb-3">
            <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.createTitle}</Dialog.Title>
            <Dialog.Close aria-label={t.close} className={ui.iconButton} disabled={saving}>
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
            </Dialog.Close>
          </div>
          <Steps step={step} t={t} />

          {step === 'type' && (
            <div className="flex min-h-0 flex-1 flex-col gap-3 p-5">
              <label htmlFor={searchId} className="sr-only">{t.searchTypes}</label>
              <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t.searchPlaceholder}
                autoComplete="off" className={`${ui.input} ${ui.inputBorder}`} />
              {shown.length === 0 ? (
                <p className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">{t.noTypeMatches}</p>
              ) : (
                <ul className="-mx-1 grid min-h-0 flex-1 auto-rows-min grid-cols-1 gap-2 overflow-y-auto px-1 py-1 sm:grid-cols-2">
                  {shown.map((type) => (
                    <li key={type.type}>
                      <button type="button" onClick={() => choose(type)}
                        className="flex w-full items-center gap-3 rounded-md border border-slate-200 bg-white px-3 py-2.5 text-left text-sm font-medium text-slate-800 hover:border-indigo-300 hover:bg-indigo-50/50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-100 dark:hover:border-indigo-500 dark:hover:bg-slate-800">
                        <Logo type={type.type} className="h-8 w-8" />
                        <span className="min-w-0 flex-1 truncate">{type.name}</span>
                        {type.deprecated && <span className={ui.badge}>{t.deprecated}</span>}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}

          {step === 'config' && selected && (
            <>
              <div className="min-h-0 flex-1 overflow-y-auto p-5">
                <div className="mb-5 flex items-center gap-3">
                  <Logo type={selected.type} className="h-10 w-10" />
                  <p className="text-base font-semibold text-slate-900 dark:text-slate-100">{selected.name}</p>
                </div>
                {error && <div role="alert" className={`${ui.alert} mb-4`}>{error}</div>}
                <DynamicForm key={selected.type} id={FORM_ID} schema={selected.configuration_schema} isNew autoFocus
                  initial={{ name: '', options: {} }} disabled={saving} onSubmit={create} />
              </div>
              <div className="flex items-center justify-between gap-3 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
                <button type="button" className={ui.secondaryButton} disabled={saving} onClick={() => { setStep('type'); setError(null) }}>
                  {t.previous}
                </button>
                <button type="submit" form={FORM_ID} className={ui.primaryButton} disabled={saving} aria-busy={saving || undefined}>
                  {saving ? t.creating : t.create}
                </button>
              </div>
            </>
          )}

          {step === 'done' && selected && (
            <div role="status" className="flex flex-col items-center gap-3 px-5 py-10 text-center">
              <span className="flex h-12 w-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-600 dark:bg-emerald-950 dark:text-emerald-400">
                <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d="M5 12l5 5L20 7" /></svg>
              </span>
              <p className="text-sm text-slate-700 dark:text-slate-300">{t.created}</p>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
