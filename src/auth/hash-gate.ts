import os from 'node:os'
import { TooManyRequests } from '../errors.ts'

export const busyMessage = 'The server is busy checking passwords. Please try again in a moment.'

/**
 * Lets one password hash run at a time, for at most a share of the time, with short waiting lines; the rest are
 * refused at once (TooManyRequests), before any hashing.
 *
 * scrypt runs on libuv's thread pool (4 threads by default), which the server also needs for zlib compression of
 * results, file reads and DNS; and each hash is ~100 ms of one core's time. Unbounded, a flood of sign-ins filled
 * the pool and the CPU with hashes and everything else queued behind them. One at a time leaves three pool threads
 * free; and while others wait in line, each hash is followed by a rest (three times as long as it took, at a share
 * of 1/4), which keeps hashing to a fraction of one core, so other requests keep their speed even while sign-ins
 * arrive faster than they can be checked.
 *
 * There are two lines. The reserved one is for hashes nobody has reason to suspect: sign-ins from an address and
 * for an account with no recent failures, and signed-in users' own password changes. It is served first (the open
 * line still gets every `openTurnEvery`-th turn while both wait, so a user who mistyped once is slowed, never shut
 * out), and has its own room: a flood of guesses fills only the open line, so everyone else still signs in within
 * a turn or two. Within each line, waiting callers take turns by address (`whose`).
 */
export class HashGate {
  private running = 0
  private reserved = new TakingTurns()
  private open = new TakingTurns()
  /** Reserved turns given in a row while the open line waited. */
  private reservedStreak = 0
  /** The most hashes ever seen running at once (for tests and the bench). */
  peak = 0

  constructor(
    readonly o: {
      maxRunning: number
      /** Room in the open line. */
      maxWaiting: number
      /** Room in the reserved line (default: as much as the open one). */
      maxReservedWaiting?: number
      /** While both lines wait, the open line gets one turn after this many reserved ones (default 3). */
      openTurnEvery?: number
      /** The share of wall time a slot may spend hashing (1: no rest between hashes). */
      share: number
      now?: () => number
      rest?: (ms: number) => Promise<void>
    },
  ) {}

  /** Hashes waiting in either line. */
  get waitingCount(): number {
    return this.reserved.size + this.open.size
  }

  /** Hashes waiting in each line (for tests and the bench). */
  get waiting(): { reserved: number; open: number } {
    return { reserved: this.reserved.size, open: this.open.size }
  }

  /**
   * Run `hash` when a slot is free and it is `whose` turn in its line (`reserved`: the caller is above suspicion);
   * throws TooManyRequests when that line is full.
   */
  async run<T>(hash: () => Promise<T>, whose = '', reserved = false): Promise<T> {
    const line = reserved ? this.reserved : this.open
    if (this.running >= this.o.maxRunning) {
      const room = reserved ? (this.o.maxReservedWaiting ?? this.o.maxWaiting) : this.o.maxWaiting
      if (line.size >= room) throw new TooManyRequests(busyMessage)
      await new Promise<void>((go, refuse) => line.add(whose, { go, refuse }))
    } else {
      this.running++
      line.lastWhose = whose
    }
    this.peak = Math.max(this.peak, this.running)
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

  /**
   * `whose` turned out to be flooding: their hashes waiting in the reserved line move to the open one, or, when it
   * has no room, are refused (TooManyRequests) as if they had come to it.
   */
  demote(whose: string) {
    for (const waiter of this.reserved.take(whose)) {
      if (this.open.size < this.o.maxWaiting) this.open.add(whose, waiter)
      else waiter.refuse(new TooManyRequests(busyMessage))
    }
  }

  /** The slot passes straight to the next caller: the reserved line's first, unless the open line is due a turn. */
  private release() {
    const openDue = this.open.size > 0 && (this.reserved.size === 0 || this.reservedStreak >= (this.o.openTurnEvery ?? 3))
    const next = openDue ? this.open.next() : this.reserved.next()
    if (!next) {
      this.running--
      return
    }
    this.reservedStreak = openDue ? 0 : this.open.size > 0 ? this.reservedStreak + 1 : 0
    next()
  }
}

interface Waiter {
  go: () => void
  refuse: (error: Error) => void
}

/** One waiting line whose callers take turns: the first in line of the caller longest without a turn goes next. */
class TakingTurns {
  private waiting = new Map<string, Waiter[]>()
  size = 0
  /** Whose hash ran last: the next turn goes to someone else when anyone else is waiting. */
  lastWhose: string | undefined

  add(whose: string, waiter: Waiter) {
    const line = this.waiting.get(whose)
    if (line) line.push(waiter)
    else this.waiting.set(whose, [waiter])
    this.size++
  }

  /** Takes all of `whose` waiting hashes out of the line. */
  take(whose: string): Waiter[] {
    const line = this.waiting.get(whose) ?? []
    this.waiting.delete(whose)
    this.size -= line.length
    return line
  }

  /** Takes the next caller out of the line (who then goes last among their own); answers how to let them go. */
  next(): (() => void) | undefined {
    let turn: string | undefined
    for (const whose of this.waiting.keys()) {
      if (turn === undefined || turn === this.lastWhose) turn = whose
      if (turn !== this.lastWhose) break
    }
    if (turn === undefined) return undefined
    const line = this.waiting.get(turn)!
    const next = line.shift()!
    this.waiting.delete(turn)
    if (line.length) this.waiting.set(turn, line)
    this.size--
    this.lastWhose = turn
    return next.go
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms)
  ;(timer as { unref?: () => void }).unref?.() // a resting slot never keeps the process alive
})

/**
 * Hashing may take an eighth of the machine: all of one core from 8 cores up, a quarter of one on 2 cores. A line of
 * 10 then waits at most about ten hashes' rest (~3 s on 2 cores) before its turn; a reserved caller behind a flood
 * waits about one (the hash running and its rest).
 */
const cores = (os as { availableParallelism?: () => number }).availableParallelism?.() ?? os.cpus().length
export const HASHING_SHARE = Math.min(1, Math.max(1, cores) / 8)

/** The process's one gate: every password hash and check goes through it. */
export const passwordHashing = new HashGate({ maxRunning: 1, maxWaiting: 10, share: HASHING_SHARE })
