import { describe, expect, it } from 'vitest'
import { isFinished, JobStatus } from './job-status.ts'

describe('JobStatus', () => {
  it('keeps the numbers clients of the established tool poll for', () => {
    expect(JobStatus).toEqual({ Pending: 1, Started: 2, Success: 3, Failure: 4 })
  })

  it('counts only success and failure as finished', () => {
    expect([1, 2, 3, 4].map((s) => isFinished(s as JobStatus))).toEqual([false, false, true, true])
  })
})
