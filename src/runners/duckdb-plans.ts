/** How many checked texts one engine remembers (past it, they are forgotten all at once). */
const REMEMBERED_PLANS = 1000

/**
 * SELECT texts whose plans an engine found clean (duckdb-statements.ts), so a repeated run (a dashboard's refresh, a
 * schedule, the same question from many viewers) is not planned twice: the EXPLAIN cost about as much as a small
 * query's own run. What a text binds to depends only on the engine's catalog (settings are locked, SET and USE
 * refused) and, through temporary objects, on the connection. So nothing is remembered or consulted while a run that
 * may change the catalog is under way on the engine, everything is forgotten when one starts and when it ends, and a
 * check begun before such a run is not remembered after it.
 */
export class CheckedPlans {
  private texts = new Set<string>()
  private changing = 0
  /** Moves on whenever what is remembered may no longer hold. */
  generation = 0

  has(text: string) {
    return this.changing === 0 && this.texts.has(text)
  }
  add(text: string, generation: number) {
    if (this.changing || generation !== this.generation) return
    if (this.texts.size >= REMEMBERED_PLANS) this.texts.clear()
    this.texts.add(text)
  }
  enter() {
    this.changing++
    this.forget()
  }
  leave() {
    this.changing--
    this.forget()
  }
  private forget() {
    this.generation++
    this.texts.clear()
  }
}

/**
 * One run's use of its engine's checked plans. A run consults and adds only until its first statement other than a
 * SELECT (from then on its own connection may see objects others do not); on an engine other runs share, that
 * statement holds the memory off for everyone until the run ends.
 */
export class RunPlans {
  private changed = false
  constructor(private plans: CheckedPlans, private shared: boolean) {}

  /** Whether every statement of the run so far was a SELECT: its engine is as it was before the run. */
  get untouched() {
    return !this.changed
  }
  /** Whether the text's plan was found clean before. */
  checked(text: string) {
    return !this.changed && this.plans.has(text)
  }
  /** Taken before a check: what the check finds is remembered only if nothing changed meanwhile. */
  mark() {
    return this.plans.generation
  }
  found(text: string, mark: number) {
    if (!this.changed) this.plans.add(text, mark)
  }
  /** A statement that may change the catalog (or make a temporary object) is about to run. */
  changes() {
    if (this.changed) return
    this.changed = true
    if (this.shared) this.plans.enter()
  }
  /** The run's connection is closed. */
  end() {
    if (this.changed && this.shared) this.plans.leave()
    this.changed = false
    this.shared = false
  }
}
