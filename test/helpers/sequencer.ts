import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Vitest's order (files that failed last time first, then the longest, by the last run's times or by size on a clean
 * clone), with the process layer's files ahead of the rest of their group: they mostly wait on the processes they
 * start, so started first they overlap the in-process files instead of ending the run on their own.
 */
export default class LayerSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const first = (spec: TestSpecification) => (spec.project.name === 'process' ? 0 : 1)
    return sorted.map((spec, i) => ({ spec, i })).sort((a, b) => first(a.spec) - first(b.spec) || a.i - b.i).map(({ spec }) => spec)
  }
}
