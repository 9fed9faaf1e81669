import { EventEmitter } from 'node:events'
import { Worker } from 'node:worker_threads'
import type { AlertNotification } from './notification.ts'
import {
  alertTemplateWith, customItems, customTextsFrom, RENDER_MODULE, TEMPLATE_BUDGET, TemplateError, TemplateTooComplex,
  type CustomTexts, type Escaping, type RenderedAlert, type RenderOutcome, type TemplateItem,
} from './template.ts'

/*
 * Why threads: Mustache renders synchronously, and nested sections over a hundred rows multiply (four levels ran 3 s,
 * five would run for minutes), during which the one event loop that answers every request did nothing else. Templates
 * people write are therefore rendered in a small pool of worker threads, kept and reused (a thread's start costs
 * ~30 ms); a thread that goes over TEMPLATE_BUDGET.ms is terminated and replaced, and its job refused as too complex.
 * The output budget is kept inside the thread, as the text grows (template-render.cjs).
 */
export const TEMPLATE_THREADS = 2

/** Said when a thread takes a job (`start`) and when it ends it (`end`, with how); the tests watch it. */
export const templateRenderEvents = new EventEmitter<{ start: []; end: [how: 'done' | 'over-time' | 'failed'] }>()

const THREAD = `
const { workerData, parentPort } = require('node:worker_threads')
require(workerData.module).serveThread(parentPort)
`
// A runaway template stays well inside this before its output budget stops it; a heap past it ends the thread, not the process.
const THREAD_HEAP_MB = 64

interface Job {
  items: TemplateItem[]
  n: AlertNotification
  resolve(outcomes: RenderOutcome[]): void
  reject(error: Error): void
}

class TemplateThread {
  private readonly worker = new Worker(THREAD, { eval: true, workerData: { module: RENDER_MODULE }, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } })
  private ready = false
  private job: Job | undefined
  private timer: NodeJS.Timeout | undefined
  private nextId = 0

  constructor(private readonly gone: (thread: TemplateThread) => void, private readonly free: (thread: TemplateThread) => void) {
    this.worker.unref()
    this.worker.on('message', (m: 'ready' | { id: number; results: RenderOutcome[] }) => {
      if (m === 'ready') {
        this.ready = true
        this.startClock()
      } else if (this.job && m.id === this.nextId) this.finish('done', () => this.job!.resolve(m.results))
    })
    // an error or an exit with a job on: the job fails (over its heap, it was too complex), the thread is replaced
    this.worker.on('error', (error: Error & { code?: string }) => this.end(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TemplateTooComplex() : new TemplateError(`The template could not be rendered: ${error.message}`)))
    this.worker.on('exit', () => this.end(new TemplateError('The template could not be rendered: its thread ended.')))
  }

  run(job: Job) {
    this.job = job
    this.worker.ref()
    this.worker.postMessage({ id: ++this.nextId, items: job.items, n: job.n, budgetBytes: TEMPLATE_BUDGET.bytes })
    this.startClock()
  }

  /** The time budget counts from when a loaded thread has the job: a thread's own start is not the template's doing. */
  private startClock() {
    if (!this.ready || !this.job || this.timer) return
    templateRenderEvents.emit('start')
    this.timer = setTimeout(() => {
      this.finish('over-time', () => this.job!.reject(new TemplateTooComplex()))
      this.retire()
    }, TEMPLATE_BUDGET.ms)
  }

  private finish(how: 'done' | 'over-time' | 'failed', settle: () => void) {
    clearTimeout(this.timer)
    this.timer = undefined
    settle()
    this.job = undefined
    templateRenderEvents.emit('end', how)
    if (how === 'done') {
      this.worker.unref()
      this.free(this)
    }
  }

  private end(error: Error) {
    if (this.job) this.finish('failed', () => this.job!.reject(error))
    this.retire()
  }

  private retired = false
  private retire() {
    if (this.retired) return
    this.retired = true
    void this.worker.terminate()
    this.gone(this)
  }
}

const idle: TemplateThread[] = []
const waiting: Job[] = []
let live = 0

function dispatch() {
  while (waiting.length) {
    let thread = idle.pop()
    if (!thread) {
      if (live >= TEMPLATE_THREADS) return
      live++
      thread = new TemplateThread(
        (t) => {
          live--
          const at = idle.indexOf(t)
          if (at >= 0) idle.splice(at, 1)
          dispatch()
        },
        (t) => {
          idle.push(t)
          dispatch()
        },
      )
    }
    thread.run(waiting.shift()!)
  }
}

/** Jobs waiting for a template thread: callers that can say "later" (the editor's preview) stop adding past a bound. */
export const templateJobsWaiting = () => waiting.length

/**
 * Templates of one notification rendered in a template thread, each to its text or its error. Rejects with
 * TemplateTooComplex when the job goes over its time: which of them did is not known then, so none has a text.
 */
export function renderOffThread(items: TemplateItem[], n: AlertNotification): Promise<RenderOutcome[]> {
  if (!items.length) return Promise.resolve([])
  return new Promise((resolve, reject) => {
    waiting.push({ items, n, resolve, reject })
    dispatch()
  })
}

/** One template off the event loop; throws TemplateError (TemplateTooComplex over the budget) when it cannot be rendered. */
export async function renderOneOffThread(template: string, n: AlertNotification, escaping: Escaping): Promise<string> {
  const [outcome] = await renderOffThread([{ template, escaping }], n)
  if ('error' in outcome) throw outcome.tooLarge ? new TemplateTooComplex() : new TemplateError(outcome.error)
  return outcome.text
}

/**
 * The alert's custom subject and body for a channel (template.ts's renderCustomTexts), rendered off the event loop,
 * each as a job of its own: one over the budget is not used (`tooComplex` says so, and the kind sends its default
 * text in its place) while the other still is.
 */
export async function customTextsOffThread(n: AlertNotification, escaping: Escaping): Promise<CustomTexts> {
  const labelled = customItems(n, escaping)
  const outcomes = await Promise.all(labelled.map(async ({ item }): Promise<RenderOutcome> => {
    try {
      return (await renderOffThread([item], n))[0]
    } catch (error) {
      if (error instanceof TemplateTooComplex) return { error: error.message, tooLarge: true }
      if (error instanceof TemplateError) return { error: error.message }
      throw error
    }
  }))
  return customTextsFrom(labelled, outcomes)
}

/** The alert editor's preview: renderAlertTemplate with the custom templates rendered off the event loop. */
export async function renderAlertPreview(n: AlertNotification, escaping: Escaping = 'html'): Promise<RenderedAlert & { tooComplex?: boolean }> {
  const custom = await customTextsOffThread(n, escaping)
  return { ...alertTemplateWith(custom, n, escaping), ...(custom.tooComplex ? { tooComplex: true } : {}) }
}
