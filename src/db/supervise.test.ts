import { describe, expect, it } from 'vitest'
import type { EmbeddedPostgres } from './embedded.ts'
import { superviseEmbedded } from './supervise.ts'

interface FakeServer { pid: number | undefined; attempts: number; pg: EmbeddedPostgres }

/** An embedded server that dies when told and starts again after `failures` failed attempts. */
function fakeServer(failures: number): FakeServer {
  const server: FakeServer = {
    pid: 100,
    attempts: 0,
    pg: {
      url: 'postgres://x', port: 1, clusterDir: '/nowhere',
      runningPid: () => server.pid,
      restart: async () => {
        server.attempts++
        if (server.attempts <= failures) throw new Error('pre-existing shared memory block is still in use')
        server.pid = 200 + server.attempts
        return server.pid
      },
      release: async () => {},
    },
  }
  return server
}

const until = async (fn: () => boolean) => {
  for (let i = 0; i < 500 && !fn(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(fn()).toBe(true)
}

describe('superviseEmbedded', () => {
  it('starts a server that went away again, retrying while it fails', async () => {
    const server = fakeServer(2)
    const supervisor = superviseEmbedded(server.pg, { checkMs: 5, backoffMs: [0, 5, 5, 5] })
    try {
      server.pid = undefined
      await until(() => server.pid !== undefined)
      expect(server).toMatchObject({ attempts: 3, pid: 203 })
    } finally {
      await supervisor.stop()
    }
  })

  it('gives up after its attempts and says so, rather than retrying for ever', async () => {
    const server = fakeServer(Infinity)
    let gaveUp: unknown
    const supervisor = superviseEmbedded(server.pg, { checkMs: 5, backoffMs: [0, 5, 5], onGiveUp: (error) => { gaveUp = error } })
    server.pid = undefined
    await until(() => gaveUp !== undefined)
    expect(server.attempts).toBe(3)
    expect(String(gaveUp)).toContain('shared memory')
    await supervisor.stop()
  })

  it('leaves a running server alone, and stops watching when told', async () => {
    const server = fakeServer(0)
    const supervisor = superviseEmbedded(server.pg, { checkMs: 5 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    await supervisor.stop()
    server.pid = undefined
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.attempts).toBe(0)
  })
})
