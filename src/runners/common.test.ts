import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { Watch, probeTcp } from './common.ts'
import { RunnerError } from './runner.ts'

describe('runner helpers', () => {
  it('probeTcp answers for a listening port, a closed one, and a silent one within its timeout', async () => {
    const server = net.createServer(() => {})
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as net.AddressInfo
    await probeTcp('127.0.0.1', port, 1_000)
    server.close()
    await new Promise((r) => server.once('close', r))
    await expect(probeTcp('127.0.0.1', port, 1_000)).rejects.toThrow('ECONNREFUSED')
  })

  it('Watch calls the engine cancel once and reports why the run stopped', async () => {
    const controller = new AbortController()
    const watch = new Watch(controller.signal, 60_000)
    const calls: string[] = []
    watch.onStop((reason) => calls.push(reason))
    controller.abort()
    controller.abort()
    expect(calls).toEqual(['cancelled'])
    expect(() => watch.check()).toThrow(new RunnerError('Query cancelled by user.', 'cancelled'))
    watch.dispose()

    const timed = new Watch(new AbortController().signal, 50, 60)
    await new Promise((r) => setTimeout(r, 100))
    expect(timed.error().kind).toBe('timeout')
    expect(timed.error().message).toBe('Query exceeded the time limit of 50 ms and was stopped.')
    const late: string[] = []
    timed.onStop((reason) => late.push(reason)) // registered after the fact: runs at once
    expect(late).toEqual(['timeout'])
    timed.dispose()
  })
})
