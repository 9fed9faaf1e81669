import crypto from 'node:crypto'
import { passwordHashing, type Rank } from './hash-gate.ts'

// scrypt is memory-hard: N=2^15, r=8 needs 32 MiB per hash, which makes GPU guessing expensive.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 }
const KEY_LENGTH = 32
const MAX_MEM = 64 * 1024 * 1024

export { MIN_PASSWORD_LENGTH } from '../shared/new-password.ts'

/**
 * Checked in place of a password when the email has no account (or no password): built from today's parameters,
 * so a wrong email costs exactly what a wrong password does and timing does not tell which emails have accounts.
 */
export const NO_ACCOUNT_HASH = ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, crypto.randomBytes(16).toString('base64'),
  crypto.randomBytes(KEY_LENGTH).toString('base64')].join('$')

/** Whose hash it is, for the hash gate's lines (src/auth/hash-gate.ts). */
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
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: MAX_MEM }, { rank: 'trusted' })
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$')
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
