import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** After each process-layer file, this many others start before the next one. */
const SPACING = 2

/**
 * Vitest's order (files that failed last time first, then the longest, by the last run's times or by size on a clean
 * clone), with the process layer's files woven in from the start: they mostly wait on the processes they start, so
 * begun early they overlap the in-process files instead of ending the run on their own; spaced out, no more than one
 * or two of them start processes at once, whose start-up bursts would otherwise crowd two cores together.
 */
export default class LayerSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const processes = sorted.filter((spec) => spec.project.name === 'process')
    if (!processes.length) return sorted
    // woven among the files that run in the same group as they do; the other groups keep their order
    const group = processes[0].project.config.sequence.groupOrder
    const others = sorted.filter((spec) => spec.project.name !== 'process' && spec.project.config.sequence.groupOrder === group)
    const woven: TestSpecification[] = []
    while (processes.length || others.length) {
      if (processes.length) woven.push(processes.shift()!)
      woven.push(...others.splice(0, SPACING))
    }
    return [...woven, ...sorted.filter((spec) => spec.project.config.sequence.groupOrder !== group)]
  }
}
