import { describe, expect, it } from 'vitest'
import { CheckedPlans, RunPlans } from './duckdb-plans.ts'

describe('checked plans of a DuckDB engine', () => {
  it('remembers a clean SELECT for the next run on the engine', () => {
    const plans = new CheckedPlans()
    const first = new RunPlans(plans, true)
    first.found('select 1', first.mark())
    first.end()
    expect(new RunPlans(plans, true).checked('select 1')).toBe(true)
  })

  it('forgets everything, and remembers nothing, while a run that changes the catalog is under way', () => {
    const plans = new CheckedPlans()
    const reader = new RunPlans(plans, true)
    reader.found('select * from v', reader.mark())
    const writer = new RunPlans(plans, true)
    writer.changes()
    const other = new RunPlans(plans, true)
    expect(other.checked('select * from v')).toBe(false)
    other.found('select * from v', other.mark())
    expect(other.checked('select * from v')).toBe(false)
    writer.end()
    expect(new RunPlans(plans, true).checked('select * from v')).toBe(false)
  })

  it('drops a check begun before another run changed the catalog', () => {
    const plans = new CheckedPlans()
    const reader = new RunPlans(plans, true)
    const mark = reader.mark()
    const writer = new RunPlans(plans, true)
    writer.changes()
    writer.end()
    reader.found('select * from v', mark)
    expect(new RunPlans(plans, true).checked('select * from v')).toBe(false)
  })

  it("stops consulting once the run's own statements changed its connection, without holding others off on a fresh engine", () => {
    const plans = new CheckedPlans()
    const seed = new RunPlans(plans, false)
    seed.found('select * from t', seed.mark())
    const run = new RunPlans(plans, false)
    run.changes()
    expect(run.checked('select * from t')).toBe(false)
    expect(new RunPlans(plans, false).checked('select * from t')).toBe(true)
  })
})
