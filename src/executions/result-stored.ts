import { log } from '../log.ts'
import type { ResultStored } from '../deps.ts'

export type { ResultStored } from '../deps.ts'

export type ResultStoredSubscriber = (event: ResultStored) => Promise<void> | void

/**
 * The features built on executions subscribe here instead of executions knowing them. Each subscriber is told once
 * per stored result, after it is committed; one that fails is logged and never fails the execution or the others.
 */
export class ResultStoredHooks {
  readonly #subscribers = new Set<ResultStoredSubscriber>()

  subscribe(subscriber: ResultStoredSubscriber): () => void {
    this.#subscribers.add(subscriber)
    return () => this.#subscribers.delete(subscriber)
  }

  async emit(event: ResultStored): Promise<void> {
    for (const subscriber of this.#subscribers) {
      try {
        await subscriber(event)
      } catch (error) {
        log.error('a result-stored subscriber failed', { result: event.resultId, error: error instanceof Error ? error.stack : String(error) })
      }
    }
  }
}
