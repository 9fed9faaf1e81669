import { z } from 'zod'
import { BadRequest } from '../errors.ts'
import { ReportScheduleSchema } from './schedule.ts'
import type { Attachment, Recipient } from './store.ts'
import { reportTexts } from './texts.ts'

export const ATTACHMENTS: Attachment[] = ['png', 'pdf', 'csv', 'xlsx']

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)
const RecipientSchema = z.union([
  z.strictObject({ user_id: id }), z.strictObject({ group_id: id }), z.strictObject({ destination_id: id }),
], { error: reportTexts.recipientShape })

const values = z.record(z.string().max(200), z.unknown()).refine((v) => JSON.stringify(v).length <= 100_000, 'values too large')

/** Every key `POST api/subscriptions` takes; on `POST api/subscriptions/{id}` each is optional (only those sent change). */
const BodySchema = z.strictObject({
  dashboard_id: id.nullish(),
  query_id: id.nullish(),
  visualization_id: id.nullish(),
  schedule: ReportScheduleSchema,
  // none given: the caller alone
  recipients: z.array(RecipientSchema, { error: reportTexts.recipientShape }).max(1000).optional(),
  parameters: values.nullish(),
  filters: values.nullish(),
  attachments: z.array(z.enum(ATTACHMENTS as [Attachment, ...Attachment[]], { error: reportTexts.attachments }), { error: reportTexts.attachments }).nullish(),
  skip_if_empty: z.boolean().nullish(),
  paused: z.boolean().nullish(),
})

export type SubscriptionBody = z.infer<typeof BodySchema>

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue.path.length ? `${issue.path.join('.')}: ` : ''
  // the schema's own messages name their field already
  throw new BadRequest(issue.message.includes('.') || issue.message.startsWith('Each') ? issue.message : `${where}${issue.message}`)
}

export const parseNewSubscription = (body: unknown) => parse(BodySchema, body)
export const parseSubscriptionChange = (body: unknown) => parse(BodySchema.partial(), body)

/** Each recipient once, in the order given. */
export function uniqueRecipients(list: Recipient[]): Recipient[] {
  const seen = new Set<string>()
  return list.filter((r) => {
    const key = JSON.stringify(r)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
