/**
 * How long a test waits for something that happens on another clock (a worker, the database, a child process):
 * generous, so that a busy machine makes a test slower, never red. Speed is measured in bench/, not in tests.
 */
export const WAIT_MS = 20_000

/** Reads `read` until `ok` holds for its value, and returns that value; fails naming `what` after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms (last: ${JSON.stringify(value)})`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
