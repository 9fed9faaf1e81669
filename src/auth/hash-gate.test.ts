import { describe, expect, it } from 'vitest'
import { TooManyRequests } from '../errors.ts'
import { HashGate } from './hash-gate.ts'

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
