/**
 * Slows password guessing: after too many failed sign-ins for one email from one address, further attempts are
 * refused for a while. Kept in memory per process, which bounds guessing per process; the KDF bounds the rest.
 */
export class LoginThrottle {
  private failures = new Map<string, number[]>()

  constructor(
    private maxFailures = 10,
    private windowMs = 15 * 60_000,
  ) {}

  private key(email: string, ip: string | undefined) {
    return `${email.trim().toLowerCase()}|${ip ?? ''}`
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs)
    if (list.length) this.failures.set(key, list)
    else this.failures.delete(key)
    return list
  }

  blocked(email: string, ip: string | undefined, now = Date.now()): boolean {
    return this.recent(this.key(email, ip), now).length >= this.maxFailures
  }

  fail(email: string, ip: string | undefined, now = Date.now()) {
    const key = this.key(email, ip)
    this.failures.set(key, [...this.recent(key, now), now])
    if (this.failures.size > 50_000) this.failures.delete(this.failures.keys().next().value as string)
  }

  succeed(email: string, ip: string | undefined) {
    this.failures.delete(this.key(email, ip))
  }
}
