import path from 'node:path'
import { expect } from 'vitest'
import { usePasswordCost } from '../../src/credentials/index.ts'

/**
 * Test files hash passwords with the cheap test cost: a suite that sets up an admin and signs people in thousands of
 * times tests sign-in, not scrypt. The files that test hashing itself, and the sign-in attacker's suite (whose
 * throttling and busy line depend on what a real hash costs), keep the strong cost production uses.
 */
const STRONG = [/^src\/credentials\/passwords\.test\.ts$/, /^test\/security\/sign-in[^/]*\.test\.ts$/]

const file = path.relative(path.resolve(import.meta.dirname, '../..'), expect.getState().testPath ?? '')
usePasswordCost(STRONG.some((pattern) => pattern.test(file)) ? 'strong' : 'test')
