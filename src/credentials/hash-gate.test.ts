import { describe, expect, it } from 'vitest'
import { TooManyRequests } from '../errors.ts'
import { HashGate, type Rank } from './hash-gate.ts'

const tick = () => new Promise((r) => setImmediate(r))

describe('HashGate', () => {
  it('runs at most maxRunning at once, queues maxWaiting, and refuses the rest before running them', async () => {
    const gate = new HashGate({ maxRunning: 2, maxWaiting: 3, share: 1 })
    const releases: (() => void)[] = []
    let started = 0
    const job = () => gate.run(() => {
      started++
      return new Promise<void>((resolve) => releases.push(resolve))
    })
    const outcomes = Array.from({ length: 8 }, () => job().then(() => 'done', (e) => (e instanceof TooManyRequests ? 'refused' : 'error')))
    await tick()
    expect(started).toBe(2)
    while (releases.length) {
      releases.shift()!()
      await tick()
    }
    expect((await Promise.all(outcomes)).sort()).toEqual([...Array(5).fill('done'), ...Array(3).fill('refused')])
    expect(started).toBe(5)
    expect(gate.peak).toBe(2)
  })

  it('rests after each hash while others wait, so that hashing takes only its share of the time', async () => {
    let clock = 0
    const rests: number[] = []
    const wake: (() => void)[] = []
    const gate = new HashGate({ maxRunning: 1, maxWaiting: 5, share: 0.25, now: () => clock,
      rest: (ms) => new Promise<void>((resolve) => { rests.push(ms); wake.push(resolve) }) })
    await gate.run(async () => { clock += 100 })
    expect(rests).toEqual([]) // alone: no rest
    let finishFirst!: () => void
    const first = gate.run(() => new Promise<void>((resolve) => (finishFirst = resolve)))
    let second = false
    const next = gate.run(async () => { second = true })
    clock += 100
    finishFirst()
    await first
    await tick()
    expect(rests).toEqual([300]) // 100 ms hashing, then 300 ms rest: a quarter of the time
    expect(second).toBe(false)
    wake.shift()!()
    await next
    expect(second).toBe(true)
  })

  it('frees its slot when the work fails', async () => {
    const gate = new HashGate({ maxRunning: 1, maxWaiting: 0, share: 1 })
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(gate.run(async () => 'ok')).resolves.toBe('ok')
  })
})

describe('HashGate turns', () => {
  it('serves waiting callers in turn, so one caller with many hashes waiting cannot hold everyone else back', async () => {
    const gate = new HashGate({ maxRunning: 1, maxWaiting: 10, share: 1 })
    const order: string[] = []
    let release!: () => void
    const first = gate.run(() => new Promise<void>((resolve) => (release = resolve)), 'attacker')
    const all = [first, ...['attacker', 'attacker', 'attacker', 'colleague', 'attacker'].map((who) => gate.run(async () => { order.push(who) }, who))]
    await tick()
    release()
    await Promise.all(all)
    expect(order).toEqual(['colleague', 'attacker', 'attacker', 'attacker', 'attacker'])
  })
})

describe('HashGate lines', () => {
  /** A gate whose first hash is held; returns a way to let it finish, and the order the others ran in. */
  function busyGate(o: { maxWaiting: number; maxReservedWaiting?: number; openTurnEvery?: number }) {
    const gate = new HashGate({ maxRunning: 1, share: 1, ...o })
    const order: string[] = []
    let release!: () => void
    const first = gate.run(() => new Promise<void>((resolve) => (release = resolve)), 'guesser-0')
    const enqueue = (who: string, rank: Rank) =>
      gate.run(async () => { order.push(who) }, who, rank).then(() => 'done', (e) => (e instanceof TooManyRequests ? 'refused' : 'error'))
    return { gate, order, first, release: () => release(), enqueue }
  }

  it('has room of its own: with the open line full of guesses, a caller above suspicion still waits, and goes next', async () => {
    const g = busyGate({ maxWaiting: 3, maxReservedWaiting: 2 })
    const guesses = Array.from({ length: 5 }, (_, i) => g.enqueue(`guesser-${i + 1}`, 'open'))
    const colleague = g.enqueue('colleague', 'clean')
    await tick()
    expect(g.gate.waiting).toEqual({ trusted: 0, clean: 1, open: 3 })
    g.release()
    await Promise.all([g.first, colleague, ...guesses])
    expect((await Promise.all(guesses)).filter((r) => r === 'refused')).toHaveLength(2)
    expect(g.order[0]).toBe('colleague')
  })

  it('still gives the open line a turn after every few reserved ones, so a mistyped password is slowed, not shut out', async () => {
    const g = busyGate({ maxWaiting: 10, maxReservedWaiting: 10, openTurnEvery: 2 })
    const all = [
      g.enqueue('typo', 'open'),
      ...Array.from({ length: 5 }, (_, i) => g.enqueue(`clean-${i}`, 'clean')),
    ]
    await tick()
    g.release()
    await Promise.all(all)
    expect(g.order).toEqual(['clean-0', 'clean-1', 'typo', 'clean-2', 'clean-3', 'clean-4'])
  })

  it('moves a caller found flooding out of the reserved line, into the open one while it has room, else refuses them', async () => {
    const g = busyGate({ maxWaiting: 1, maxReservedWaiting: 5 })
    const outcomes = [g.enqueue('flooder', 'clean'), g.enqueue('flooder', 'clean'), g.enqueue('colleague', 'clean')]
    await tick()
    g.gate.demote('flooder')
    expect(g.gate.waiting).toEqual({ trusted: 0, clean: 1, open: 1 })
    g.release()
    expect(await Promise.all(outcomes)).toEqual(['done', 'refused', 'done'])
    expect(g.order).toEqual(['colleague', 'flooder'])
  })

  it('serves the trusted line before the clean one, each with room of its own', async () => {
    const g = busyGate({ maxWaiting: 10, maxReservedWaiting: 2 })
    const outcomes = [
      g.enqueue('fresh-1', 'clean'), g.enqueue('fresh-2', 'clean'), g.enqueue('fresh-3', 'clean'), g.enqueue('owner', 'trusted'),
    ]
    await tick()
    g.release()
    expect(await Promise.all(outcomes)).toEqual(['done', 'done', 'refused', 'done'])
    expect(g.order).toEqual(['owner', 'fresh-1', 'fresh-2'])
  })

  it('refuses a caller above suspicion only when its own line is full', async () => {
    const g = busyGate({ maxWaiting: 0, maxReservedWaiting: 1 })
    const outcomes = [g.enqueue('guesser-1', 'open'), g.enqueue('colleague-1', 'clean'), g.enqueue('colleague-2', 'clean')]
    await tick()
    g.release()
    expect(await Promise.all(outcomes)).toEqual(['refused', 'done', 'refused'])
  })
})

describe('HashGate rest and the trusted line', () => {
  it('cuts the rest short for a trusted caller, and rests again before the next guess', async () => {
    let clock = 0
    const rests: number[] = []
    const gate = new HashGate({ maxRunning: 1, maxWaiting: 5, share: 0.25, now: () => clock,
      rest: (ms) => new Promise<void>(() => { rests.push(ms) }) }) // a rest that never ends by itself
    let finishFirst!: () => void
    const first = gate.run(() => new Promise<void>((resolve) => (finishFirst = resolve)), 'guesser-1')
    const order: string[] = []
    const guess = gate.run(async () => { order.push('guesser-2') }, 'guesser-2', 'open')
    clock += 100
    finishFirst()
    await first
    await tick()
    expect(rests).toEqual([300]) // the slot rests before the next guess
    const owner = gate.run(async () => { order.push('owner'); clock += 100 }, 'owner', 'trusted')
    await owner // goes at once, without waiting out the rest
    expect(order).toEqual(['owner'])
    await tick()
    expect(rests).toEqual([300, 300]) // after the owner, the slot rests again before the guess (100 ms of hashing)
    void guess
  })
})
