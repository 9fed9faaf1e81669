import { afterEach, vi } from 'vitest'

// An unexpected console.error is a bug surfacing: fail the test where it starts.
const errors: unknown[][] = []
const original = console.error
console.error = (...args: unknown[]) => {
  errors.push(args)
  original(...args)
}

afterEach(() => {
  const seen = errors.splice(0)
  vi.restoreAllMocks()
  if (seen.length) throw new Error(`console.error was called:\n${seen.map((a) => a.map(String).join(' ')).join('\n')}`)
})
