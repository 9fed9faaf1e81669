import crypto from 'node:crypto'
import { passwordHashing, type Rank } from './hash-gate.ts'

// scrypt is memory-hard: N=2^15, r=8 needs 32 MiB per hash, which makes GPU guessing expensive.
export const STRONG_PASSWORD_COST = { N: 2 ** 15, r: 8, p: 1 }
// a thirty-second of the work: tests that sign people in by the hundred check sign-in, not hashing
const TEST_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 }
let params = STRONG_PASSWORD_COST
const KEY_LENGTH = 32
const MAX_MEM = 64 * 1024 * 1024

export { MIN_PASSWORD_LENGTH } from '../shared/new-password.ts'

/**
 * Checked in place of a password when the email has no account (or no password): built from today's parameters,
 * so a wrong email costs exactly what a wrong password does and timing does not tell which emails have accounts.
 */
export function noAccountHash(): string {
  return ['scrypt', params.N, params.r, params.p, NO_ACCOUNT_SALT, NO_ACCOUNT_KEY].join('$')
}
const NO_ACCOUNT_SALT = crypto.randomBytes(16).toString('base64')
const NO_ACCOUNT_KEY = crypto.randomBytes(KEY_LENGTH).toString('base64')

/**
 * The cost new hashes are made with: strong unless a test process (NODE_ENV=test) asks for the cheap one. Existing
 * hashes are always checked with the cost they carry.
 */
export function usePasswordCost(cost: 'strong' | 'test') {
  if (cost === 'test' && process.env.NODE_ENV !== 'test') throw new Error('the test password cost is for tests only')
  params = cost === 'test' ? TEST_PASSWORD_COST : STRONG_PASSWORD_COST
}

/** The cost new hashes are made with now. */
export const passwordCost = () => params

/** Whose hash it is, for the hash gate's lines (src/credentials/hash-gate.ts). */
export interface HashCaller {
  /** The caller's address: callers take turns by it. */
  whose?: string
  /** Which of the gate's lines the hash waits in (default `open`). */
  rank?: Rank
}

/** scrypt through the process's hash gate, so hashing never takes more of libuv's pool than the gate allows. */
function scrypt(password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions, caller: HashCaller): Promise<Buffer> {
  return passwordHashing.run(() => new Promise<Buffer>((resolve, reject) => {
    crypto.scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key)))
  }), caller.whose, caller.rank)
}

/**
 * Hash as `scrypt$N$r$p$salt$hash` (base64), so parameters can be raised later without breaking old hashes. Only
 * callers who proved something hash a new password (the first admin at setup, a link's holder, a signed-in user who
 * gave their current one), so it takes the gate's trusted line: a sign-in flood never holds it up.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...params, maxmem: MAX_MEM }, { rank: 'trusted' })
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$')
}

/** Throws TooManyRequests (before hashing) when the caller's line at the hash gate is full. */
export async function verifyPassword(password: string, stored: string | null, caller: HashCaller = {}): Promise<boolean> {
  if (!stored) return false
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEM,
  }, caller)
  return crypto.timingSafeEqual(actual, expected)
}
