import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeVersionProblem, PROCESS_MANAGER_COMMAND } from '../../src/node-version.ts'

const required = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).engines.node as string

describe('the Node version check', () => {
  it('package.json asks for Node 22.18 or newer, in the form the check reads', () => {
    expect(required).toBe('>=22.18')
    expect(nodeVersionProblem('22.18.0', required, '/x/node')).toBeUndefined()
  })

  it('lets the required version and newer ones run', () => {
    for (const version of ['22.18.0', 'v22.18.0', '22.18.5', '22.23.3', '23.0.0', '24.1.0', '26.3.0']) {
      expect(nodeVersionProblem(version, '>=22.18', '/x/node'), version).toBeUndefined()
    }
    expect(nodeVersionProblem('22.0.0', '>=22', '/x/node')).toBeUndefined()
    expect(nodeVersionProblem('22.18.3', '>=22.18.3', '/x/node')).toBeUndefined()
  })

  it('refuses older ones, naming the required version, the Node found and the command to use instead', () => {
    for (const version of ['20.20.2', 'v20.20.2', '22.17.9', '22.9.0', '18.0.0', '21.99.99']) {
      const problem = nodeVersionProblem(version, '>=22.18', '/usr/local/bin/node')
      expect(problem, version).toContain('Node.js 22.18 or newer')
      expect(problem, version).toContain(`/usr/local/bin/node is Node.js ${version.replace(/^v/, '')}`)
      expect(problem, version).toContain(PROCESS_MANAGER_COMMAND)
    }
    expect(nodeVersionProblem('22.18.2', '>=22.18.3', '/x/node')).toContain('Node.js 22.18.3 or newer')
    expect(PROCESS_MANAGER_COMMAND).toBe('node_modules/.bin/node --import tsx src/main.ts')
  })

  it('compares numbers, not text (22.9 is older than 22.18)', () => {
    expect(nodeVersionProblem('22.9.0', '>=22.18', '/x/node')).toBeDefined()
    expect(nodeVersionProblem('100.0.0', '>=22.18', '/x/node')).toBeUndefined()
  })

  it('takes an engines range it cannot read for a mistake in package.json', () => {
    for (const range of ['^22.18', '22.x', '>=22.18 <25', '']) {
      expect(() => nodeVersionProblem('22.18.0', range, '/x/node'), range).toThrow(/engines\.node/)
    }
  })
})
