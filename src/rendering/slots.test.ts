import { describe, expect, it } from 'vitest'
import { TooManyRequests } from '../errors.ts'
import { Slots } from './slots.ts'

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('export slots', () => {
  it('runs at most `size` at once, starts the waiting in order as turns free, and refuses past the queue', async () => {
    const slots = new Slots(2, 1)
    const started: number[] = []
    const gates = [deferred(), deferred(), deferred()]
    const runs = gates.map((gate, i) => slots.run(async () => {
      started.push(i)
      await gate.promise
      return i
    }))
    await Promise.resolve()
    expect(started).toEqual([0, 1])
    await expect(slots.run(async () => 9)).rejects.toBeInstanceOf(TooManyRequests)
    gates[0].resolve()
    expect(await runs[0]).toBe(0)
    await Promise.resolve()
    expect(started).toEqual([0, 1, 2])
    gates[1].resolve()
    gates[2].resolve()
    expect(await Promise.all(runs)).toEqual([0, 1, 2])
    // every slot is free again
    expect(await Promise.all([slots.run(async () => 'a'), slots.run(async () => 'b'), slots.run(async () => 'c')])).toEqual(['a', 'b', 'c'])
  })

  it('frees the slot of a drawing that failed', async () => {
    const slots = new Slots(1, 0)
    await expect(slots.run(async () => { throw new Error('broken') })).rejects.toThrow('broken')
    expect(await slots.run(async () => 'next')).toBe('next')
  })
})
