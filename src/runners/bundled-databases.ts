import { RunnerError } from './runner.ts'

/*
 * Databases Sightline itself provides, such as the Demo source's shop. A DuckDB source names one in its Database
 * Path as `sightline:<name>` instead of a file: a file path would be the one of the process that created the source,
 * and a worker on another machine has no such file. Each process finds (and on first use builds) its own copy in
 * its own data directory; what builds it is registered when the process starts (src/demo/dataset.ts).
 */

export const BUNDLED_PREFIX = 'sightline:'

const providers = new Map<string, () => Promise<string>>()

/** Registers how this process finds a bundled database's file: `file` builds it when it is missing. */
export function provideBundledDatabase(name: string, file: () => Promise<string>) {
  providers.set(name, file)
}

export const isBundled = (dbpath: string) => dbpath.startsWith(BUNDLED_PREFIX)

/** This process's file of the bundled database `dbpath` names, built if it has none yet. */
export async function bundledFile(dbpath: string): Promise<string> {
  const name = dbpath.slice(BUNDLED_PREFIX.length)
  const provide = providers.get(name)
  if (!provide) throw new RunnerError(`Sightline provides no database named "${name}".`, 'connection')
  return provide()
}
