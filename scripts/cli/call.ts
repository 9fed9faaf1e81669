import type { CliIo } from './io.ts'

/** One call to a Sightline instance's API with an admin key; a body that is not JSON comes back as its first words. */
export async function call(io: CliIo, method: string, url: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await io.fetch(url, {
    method, headers: { Authorization: `Key ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    return { status: res.status, body: { message: text.slice(0, 200) } }
  }
}
