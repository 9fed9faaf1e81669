import { texts } from '../../src/shared/texts.ts'
import { sessionExpired } from './bus.ts'

/** An API failure with the server's message (or the spec's text for a connection failure). */
export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly body: unknown, readonly statusText = '') {
    super(message)
  }
}

function csrfToken(): string {
  const match = /(?:^|;\s*)csrf_token=([^;]*)/.exec(document.cookie)
  return match ? decodeURIComponent(match[1]) : ''
}

let shareKey: string | null | undefined

/**
 * The share token of the public dashboard this page is (its root carries `data-share-key`), else null. A public page's
 * calls go with the token alone (`Authorization: Key …`) and no cookies: they never need, nor use, a session.
 */
export function pageShareKey(): string | null {
  if (shareKey === undefined) shareKey = typeof document === 'undefined' ? null : document.querySelector('[data-share-key]')?.getAttribute('data-share-key') ?? null
  return shareKey
}

async function send(method: string, path: string, body: unknown): Promise<Response> {
  const key = pageShareKey()
  try {
    return await fetch(path, {
      method,
      credentials: key ? 'omit' : 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(key ? { Authorization: `Key ${key}` } : method === 'GET' ? {} : { 'X-CSRF-TOKEN': csrfToken() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(texts.errors.connection, 0, undefined)
  }
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return text
  }
}

const messageOf = (body: unknown) =>
  typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : ''

/** A failed call's own message from the server, '' when it gave none (spec 3 §8 texts then fall back to their own). */
export const serverMessage = (error: unknown) => (error instanceof ApiError ? messageOf(error.body) : '')

/**
 * Call Sightline's API as the signed-in browser. Follows spec 1 §8: a 400 mentioning CSRF is retried once after
 * GET /ping; a 401 (or 'Please login') opens the session-expired modal and retries once the user is back.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let response = await send(method, path, body)
  let data = await parse(response)
  if (response.status === 400 && messageOf(data).includes('CSRF')) {
    await send('GET', '/ping', undefined)
    response = await send(method, path, body)
    data = await parse(response)
  }
  if (!pageShareKey() && (response.status === 401 || (messageOf(data).includes('Please login') && !path.startsWith('/api/session')))) {
    await sessionExpired()
    response = await send(method, path, body)
    data = await parse(response)
  }
  if (!response.ok) throw new ApiError(messageOf(data) || texts.errors.unknown, response.status, data, response.statusText)
  return data as T
}
