import os from 'node:os'
import { TooManyRequests } from '../errors.ts'

export const busyMessage = 'The server is busy checking passwords. Please try again in a moment.'

/**
 * Lets one password hash run at a time, for at most a share of the time, with a short waiting line; the rest are
 * refused at once (TooManyRequests), before any hashing.
 *
 * scrypt runs on libuv's thread pool (4 threads by default), which the server also needs for zlib compression of
 * results, file reads and DNS; and each hash is ~100 ms of one core's time. Unbounded, a flood of sign-ins filled
 * the pool and the CPU with hashes and everything else queued behind them. One at a time leaves three pool threads
 * free; and while others wait in line, each hash is followed by a rest (three times as long as it took, at a share
 * of 1/4), which keeps hashing to a fraction of one core, so other requests keep their speed even while sign-ins
 * arrive faster than they can be checked. Waiting callers take turns by address (`whose`).
 */
export class HashGate {
  private running = 0
  /** Waiting hashes by whose they are (the caller's address), served in turn so one caller cannot crowd the line. */
  private waiting = new Map<string, (() => void)[]>()
  private waitingCount = 0
  /** Whose hash ran last: the next turn goes to someone else when anyone else is waiting. */
  private lastWhose: string | undefined
  /** The most hashes ever seen running at once (for tests and the bench). */
  peak = 0

  constructor(
    readonly o: {
      maxRunning: number
      maxWaiting: number
      /** The share of wall time a slot may spend hashing (1: no rest between hashes). */
      share: number
      now?: () => number
      rest?: (ms: number) => Promise<void>
    },
  ) {}

  /** Run `hash` when a slot is free and it is `whose` turn; throws TooManyRequests when the waiting line is full. */
  async run<T>(hash: () => Promise<T>, whose = ''): Promise<T> {
    if (this.running >= this.o.maxRunning) {
      if (this.waitingCount >= this.o.maxWaiting) throw new TooManyRequests(busyMessage)
      this.waitingCount++
      await new Promise<void>((resolve) => {
        const line = this.waiting.get(whose)
        if (line) line.push(resolve)
        else this.waiting.set(whose, [resolve])
      })
    } else {
      this.running++
    }
    this.peak = Math.max(this.peak, this.running)
    this.lastWhose = whose
    const now = this.o.now ?? (() => performance.now())
    const began = now()
    try {
      return await hash()
    } finally {
      // with others in line, rest before the next hash; a lone sign-in (the usual case) waits for nobody
      const restMs = this.waitingCount ? (now() - began) * (1 / this.o.share - 1) : 0
      if (restMs > 0) void (this.o.rest ?? sleep)(restMs).then(() => this.release())
      else this.release()
    }
  }

  /** The slot passes straight to the first in line of the caller longest without a turn, who then goes last. */
  private release() {
    let turn: string | undefined
    for (const whose of this.waiting.keys()) {
      if (turn === undefined || turn === this.lastWhose) turn = whose
      if (turn !== this.lastWhose) break
    }
    if (turn === undefined) {
      this.running--
      return
    }
    const line = this.waiting.get(turn)!
    const next = line.shift()!
    this.waiting.delete(turn)
    if (line.length) this.waiting.set(turn, line)
    this.waitingCount--
    next()
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms)
  ;(timer as { unref?: () => void }).unref?.() // a resting slot never keeps the process alive
})

/**
 * Hashing may take an eighth of the machine: all of one core from 8 cores up, a quarter of one on 2 cores. A line of
 * 10 then waits at most about ten hashes' rest (~3 s on 2 cores) before its turn.
 */
const cores = (os as { availableParallelism?: () => number }).availableParallelism?.() ?? os.cpus().length
export const HASHING_SHARE = Math.min(1, Math.max(1, cores) / 8)

/** The process's one gate: every password hash and check goes through it. */
export const passwordHashing = new HashGate({ maxRunning: 1, maxWaiting: 10, share: HASHING_SHARE })
