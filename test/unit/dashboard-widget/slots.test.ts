import { describe, expect, it } from 'vitest'
import { Slots } from '../../../islands/lib/dashboard-widget/slots.ts'

/** A task the test ends by hand, so "still running" is a fact, not a timing. */
function gate() {
  let open!: () => void
  let fail!: (error: Error) => void
  const done = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)))
  return { done, open, fail }
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('Slots', () => {
  it('runs at most `limit` tasks at once, and the rest in the order they came', async () => {
    const slots = new Slots(2)
    const gates = Array.from({ length: 5 }, gate)
    const started: number[] = []
    let most = 0
    const all = gates.map((g, n) => slots.run(async () => {
      started.push(n)
      most = Math.max(most, slots.running)
      await g.done
    }))
    await turn()
    expect(started).toEqual([0, 1])
    gates[1].open()
    await turn()
    expect(started).toEqual([0, 1, 2])
    for (const g of gates) g.open()
    await Promise.all(all)
    expect(started).toEqual([0, 1, 2, 3, 4])
    expect(most).toBe(2)
    expect(slots.running).toBe(0)
  })

  it('gives the slot back when a task fails, and passes the failure on', async () => {
    const slots = new Slots(1)
    const first = gate()
    const failing = slots.run(() => first.done)
    const next = slots.run(async () => 'ran')
    first.fail(new Error('boom'))
    await expect(failing).rejects.toThrow('boom')
    expect(await next).toBe('ran')
    expect(slots.running).toBe(0)
  })
})
