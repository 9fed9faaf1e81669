// The part of oidc-provider's API the test provider uses (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface Interaction {
    uid: string
    params: Record<string, string>
    prompt: { name: string }
  }

  class Grant {
    constructor(o: { accountId: string; clientId: string })
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    proxy: boolean
    Grant: typeof Grant
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, o?: { mergeWithLastSubmission?: boolean }): Promise<void>
    on(event: string, listener: (...args: unknown[]) => void): this
  }
  export default Provider
}
