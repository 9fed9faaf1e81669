/**
 * A fixed number of slots for work that must not all run at once. A task waits for a free slot, keeps it until it
 * ends (however it ends) and hands it straight to the oldest waiting task, so the count never goes over the limit.
 */
export class Slots {
  private busy = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly limit: number) {}

  /** How many tasks hold a slot now. */
  get running(): number {
    return this.busy
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.busy < this.limit) this.busy++
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.waiting.shift()
      // the slot passes to the next task as it is: taken and given back in one step, so nobody can slip in between
      if (next) next()
      else this.busy--
    }
  }
}

/**
 * A dashboard's executions run at most four at a time: a Refresh of twenty widgets asks the sources for four, not
 * twenty, at once, and the widgets in sight, which hydrate and ask first, come back first. Every widget island of the
 * page shares this one (the module is loaded once).
 */
export const dashboardRuns = new Slots(4)
