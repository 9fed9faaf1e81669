/**
 * The one error vocabulary. Services throw these; `src/http/on-error.ts` alone turns them into responses.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra JSON fields sent beside `message` (e.g. a job for a 400 on a result load). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message)
    this.name = new.target.name
  }
}

export class BadRequest extends HttpError {
  constructor(message = 'Bad request.', extra?: Record<string, unknown>) {
    super(400, message, extra)
  }
}

export class Unauthorized extends HttpError {
  constructor(message = "Couldn't find resource. Please login and try again.") {
    super(401, message)
  }
}

export class Forbidden extends HttpError {
  constructor(message = "You don't have permission to access this resource.") {
    super(403, message)
  }
}

export class NotFound extends HttpError {
  constructor(message = 'Not found.') {
    super(404, message)
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message)
  }
}

/** A request body over the size the server accepts (SIGHTLINE_MAX_BODY_BYTES). */
export class PayloadTooLarge extends HttpError {
  constructor(message = 'The request body is too large.') {
    super(413, message)
  }
}

/** Over a rate limit: the caller may try again after `retryAfterSeconds` (Retry-After), when known. */
export class TooManyRequests extends HttpError {
  constructor(
    message = 'Too many requests. Please wait a moment and try again.',
    readonly retryAfterSeconds?: number,
  ) {
    super(429, message)
  }
}

/** A data source answered with an error to something Sightline asked of it (not a query's own failure). */
export class BadGateway extends HttpError {
  constructor(message: string) {
    super(502, message)
  }
}

/** Sightline's own database cannot be reached: the caller should try again in `retryAfterSeconds` (Retry-After). */
export class ServiceUnavailable extends HttpError {
  constructor(
    message = 'Sightline cannot reach its database right now. Please try again in a few seconds.',
    readonly retryAfterSeconds = 2,
  ) {
    super(503, message)
  }
}

/** Not an error: sends the browser elsewhere (pages only), e.g. to /setup before the organization exists. */
export class Redirect extends HttpError {
  constructor(readonly location: string) {
    super(302, 'Redirect')
  }
}
