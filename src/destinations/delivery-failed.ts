/**
 * One delivery attempt that did not reach its service, or that the service refused. The alerts' delivery job records
 * it and tries again later when `retryable` (a timeout, a 5xx, a 429), or gives up at once when trying again cannot
 * help (a 4xx, a destination that no longer exists, a service that is gone).
 */
export class DeliveryFailed extends Error {
  constructor(
    message: string,
    /** The service's HTTP status, or null when none came (timeout, refused connection, mail, no request made). */
    readonly status: number | null,
    readonly retryable: boolean,
    /**
     * The message without what the service said (its answer's body, the mail server's reply), where it has any: the
     * delivery log shows the service's own words only to the alert's owner and admins.
     */
    readonly brief: string = message,
  ) {
    super(message)
    this.name = 'DeliveryFailed'
  }
}
