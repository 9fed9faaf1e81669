import { TooManyRequests } from '../errors.ts'

export const slotTexts = {
  busy: 'Too many exports are being drawn right now. Please try again in a moment.',
}

/**
 * At most `size` drawings at once in this process, and at most `maxWaiting` waiting for a turn; more are refused with
 * a 429. An export costs a few hundred ms of CPU: without a bound, a member asking for many at once would slow every
 * other request of the process.
 */
export class Slots {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly size: number, readonly maxWaiting: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      if (this.waiting.length >= this.maxWaiting) throw new TooManyRequests(slotTexts.busy, 5)
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      return await work()
    } finally {
      // the turn passes to the next waiting drawing, or the slot is freed
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}

/** The web process's exports: two at once (two cores), twenty waiting. */
export const exportSlots = new Slots(2, 20)
