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
 * arrive faster than they can be checked. A trusted caller (below) does not wait for the rest.
 *
 * Callers wait in three lines, served in this order (`Rank`): `trusted` for signed-in users' own password changes and
 * sign-ins from where the account already has a session, `clean` for sign-ins from an address and for an account
 * with no recent failures, `open` for the rest. The open line still gets every `openTurnEvery`-th turn while others
 * wait, so a user who mistyped once is slowed, never shut out. Each line has its own room: a flood of guesses fills
 * only the open line (and, from addresses it has not seen fail yet, the clean one), so the rest still sign in within
 * a turn or two. Within each line, waiting callers take turns by address (`whose`).
 */
export type Rank = 'trusted' | 'clean' | 'open'

export class HashGate {
  private running = 0
  private lines: Record<Rank, TakingTurns> = { trusted: new TakingTurns(), clean: new TakingTurns(), open: new TakingTurns() }
  /** Turns given in a row to the other lines while the open line waited. */
  private reservedStreak = 0
  /** Ends the slot's rest at once (while it rests). */
  private endRest: (() => void) | undefined
  /** The most hashes ever seen running at once (for tests and the bench). */
  peak = 0

  constructor(
    readonly o: {
      maxRunning: number
      /** Room in the open line. */
      maxWaiting: number
      /** Room in each of the trusted and clean lines (default: as much as the open one). */
      maxReservedWaiting?: number
      /** While others wait, the open line gets one turn after this many of theirs (default 3). */
      openTurnEvery?: number
      /** The share of wall time a slot may spend hashing (1: no rest between hashes). */
      share: number
      now?: () => number
      rest?: (ms: number) => Promise<void>
    },
  ) {}

  /** Hashes waiting in any line. */
  get waitingCount(): number {
    return this.lines.trusted.size + this.lines.clean.size + this.lines.open.size
  }

  /** Hashes waiting in each line (for tests and the bench). */
  get waiting(): Record<Rank, number> {
    return { trusted: this.lines.trusted.size, clean: this.lines.clean.size, open: this.lines.open.size }
  }

  /** Run `hash` when a slot is free and it is `whose` turn in the line of its rank; throws TooManyRequests when that line is full. */
  async run<T>(hash: () => Promise<T>, whose = '', rank: Rank = 'open'): Promise<T> {
    const line = this.lines[rank]
    if (this.running >= this.o.maxRunning) {
      const room = rank === 'open' ? this.o.maxWaiting : (this.o.maxReservedWaiting ?? this.o.maxWaiting)
      if (line.size >= room) throw new TooManyRequests(busyMessage)
      await new Promise<void>((go, refuse) => {
        line.add(whose, { go, refuse })
        if (rank === 'trusted') this.endRest?.() // the rest keeps guesses down; it need not hold up the trusted
      })
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
      const restMs = this.waitingCount && !this.lines.trusted.size ? (now() - began) * (1 / this.o.share - 1) : 0
      if (restMs > 0) {
        let ended = false
        const end = () => {
          if (ended) return
          ended = true
          this.endRest = undefined
          this.release()
        }
        this.endRest = end
        void (this.o.rest ?? sleep)(restMs).then(end)
      } else {
        this.release()
      }
    }
  }

  /**
   * `whose` turned out to be flooding: their hashes waiting in the clean line move to the open one, or, when it has
   * no room, are refused (TooManyRequests) as if they had come to it.
   */
  demote(whose: string) {
    for (const waiter of this.lines.clean.take(whose)) {
      if (this.lines.open.size < this.o.maxWaiting) this.lines.open.add(whose, waiter)
      else waiter.refuse(new TooManyRequests(busyMessage))
    }
  }

  /** The slot passes straight to the next caller: trusted first, then clean, unless the open line is due a turn. */
  private release() {
    const { trusted, clean, open } = this.lines
    const openDue = open.size > 0 && (trusted.size + clean.size === 0 || this.reservedStreak >= (this.o.openTurnEvery ?? 3))
    const next = (openDue ? open : trusted.size ? trusted : clean).next()
    if (!next) {
      this.running--
      return
    }
    this.reservedStreak = openDue ? 0 : open.size > 0 ? this.reservedStreak + 1 : 0
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
 * 10 then waits at most about ten hashes' rest (~3 s on 2 cores) before its turn; a trusted or clean caller behind a
 * flood waits about one (the hash running and its rest).
 */
const cores = (os as { availableParallelism?: () => number }).availableParallelism?.() ?? os.cpus().length
export const HASHING_SHARE = Math.min(1, Math.max(1, cores) / 8)

/** The process's one gate: every password hash and check goes through it. */
export const passwordHashing = new HashGate({ maxRunning: 1, maxWaiting: 10, share: HASHING_SHARE })
