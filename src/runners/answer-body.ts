import { RunnerError } from './runner.ts'
import { networkCode, type Answer } from './safe-fetch.ts'

/** What is left of the bytes one result may take, shared by every page a run reads. */
export class ByteBudget {
  left: number
  constructor(readonly limit: number) {
    this.left = limit
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`
  return `${n} bytes`
}

function tooLarge(answer: Answer, budget: ByteBudget): RunnerError {
  return new RunnerError(`The answer from ${answer.url.origin} is larger than ${formatBytes(budget.limit)}, the most one result may take; ` +
    'reading stopped there (an administrator can raise SIGHTLINE_MAX_RESULT_BYTES).')
}

/**
 * The whole body, handed to `take` chunk by chunk and refused as soon as it goes past what is left of the budget
 * (before reading anything when its Content-Length already does), so a huge or endless answer is never read in full.
 */
export async function readBody(answer: Answer, budget: ByteBudget, signal: AbortSignal, take: (chunk: Buffer) => void): Promise<void> {
  try {
    const declared = Number(answer.headers['content-length'])
    if (!answer.decompressed && Number.isFinite(declared) && declared > budget.left) throw tooLarge(answer, budget)
    for await (const chunk of answer.body) {
      budget.left -= (chunk as Buffer).length
      if (budget.left < 0) throw tooLarge(answer, budget)
      take(chunk as Buffer)
    }
  } catch (e) {
    if (e instanceof RunnerError) throw e
    if (signal.aborted) throw signal.reason
    throw new RunnerError(`The answer from ${answer.url.origin} broke off: ${networkCode(e)}`, 'connection')
  } finally {
    answer.close()
  }
}

/** The start of a body (an error page worth quoting), at most `max` bytes; the rest is never read. */
export async function readStart(answer: Answer, max: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of answer.body) {
      chunks.push(chunk as Buffer)
      size += (chunk as Buffer).length
      if (size >= max) break
    }
  } catch {
    // A broken error page is still an error page: quote what arrived.
  } finally {
    answer.close()
  }
  return Buffer.concat(chunks).subarray(0, max)
}
