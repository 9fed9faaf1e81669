import { api } from '../api.ts'

/** What the preview renders: the alert as the form holds it, against its query's latest stored result. */
export interface PreviewInput {
  name: string
  query_id: number
  alert_id?: number
  options: Record<string, unknown>
  custom_subject: string
  custom_body: string
}

/** POST api/alerts/preview's answer: the mail's subject and HTML body, and why a custom template failed, if it did. */
export interface Preview {
  subject: string
  body: string
  error?: string
}

/** The server renders the template as a destination does (src/destinations/template.ts), so the preview is true. */
export async function previewTemplate(input: PreviewInput): Promise<Preview> {
  const { custom_subject, custom_body, ...rest } = input
  return api<Preview>('POST', '/api/alerts/preview', { ...rest, options: { ...rest.options, custom_subject, custom_body } })
}
