import { http, HttpResponse } from 'msw'
import { signV4 } from '../../../src/runners/index.ts'

/**
 * AWS STS's AssumeRole over its Query API as its reference documents it (docs.aws.amazon.com/STS/latest/APIReference/
 * API_AssumeRole.html): a form-encoded POST (Action=AssumeRole, Version=2011-06-15, RoleArn, RoleSessionName,
 * DurationSeconds, ExternalId) signed with Signature Version 4 for the `sts` service, answered in XML
 * (`AssumeRoleResponse/AssumeRoleResult/Credentials`) or with an `ErrorResponse`. The roles it knows may be assumed by
 * the given keys, with the external ID each names.
 */
export interface FakeRole { arn: string; externalId?: string }

export function fakeSts(o: { region: string; accessKeyId: string; secretAccessKey: string; roles: FakeRole[] }) {
  const issued = new Map<string, { secretAccessKey: string; sessionToken: string; sessionName: string; roleArn: string }>()
  const calls: Record<string, string>[] = []
  let lifetimeMs = 3_600_000
  let seq = 0

  const error = (status: number, code: string, message: string) => new HttpResponse(
    `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">\n  <Error>\n    <Type>Sender</Type>\n    <Code>${code}</Code>\n    <Message>${message}</Message>\n  </Error>\n  <RequestId>4e1c1ff2-2a5e-4b7e-9e6e-${String(++seq).padStart(12, '0')}</RequestId>\n</ErrorResponse>\n`,
    { status, headers: { 'content-type': 'text/xml' } })

  const handler = http.post(`https://sts.${o.region}.amazonaws.com/`, async ({ request }) => {
    const text = await request.text()
    const form = Object.fromEntries(new URLSearchParams(text))
    calls.push(form)
    const expected = signV4({ method: 'POST', url: new URL(request.url), body: text, region: o.region, service: 'sts', amzDate: request.headers.get('x-amz-date') ?? '',
      credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey }, headers: { 'content-type': request.headers.get('content-type') ?? '' } })
    if (expected.authorization !== request.headers.get('authorization')) {
      return error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.')
    }
    if (form.Action !== 'AssumeRole' || form.Version !== '2011-06-15') return error(400, 'InvalidAction', `Could not find operation ${form.Action} for version ${form.Version}`)
    if (!/^[\w+=,.@-]{2,64}$/.test(form.RoleSessionName ?? '')) return error(400, 'ValidationError', `1 validation error detected: Value '${form.RoleSessionName}' at 'roleSessionName' failed to satisfy constraint`)
    const role = o.roles.find((r) => r.arn === form.RoleArn)
    if (!role || (role.externalId ?? undefined) !== (form.ExternalId ?? undefined)) {
      return error(403, 'AccessDenied', `User: arn:aws:iam::123456789012:user/sightline is not authorized to perform: sts:AssumeRole on resource: ${form.RoleArn}`)
    }
    const n = String(++seq).padStart(4, '0')
    const accessKeyId = `ASIAIOSFODNN7EX${n}`
    const secretAccessKey = `wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLE${n}`
    const sessionToken = `AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==${n}`
    const expiration = new Date(Date.now() + lifetimeMs).toISOString().replace(/\.\d{3}/, '')
    issued.set(accessKeyId, { secretAccessKey, sessionToken, sessionName: form.RoleSessionName, roleArn: role.arn })
    const roleName = role.arn.split('/').pop()
    return new HttpResponse(`<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <Arn>arn:aws:sts::123456789012:assumed-role/${roleName}/${form.RoleSessionName}</Arn>
      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:${form.RoleSessionName}</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>${accessKeyId}</AccessKeyId>
      <SecretAccessKey>${secretAccessKey}</SecretAccessKey>
      <SessionToken>${sessionToken}</SessionToken>
      <Expiration>${expiration}</Expiration>
    </Credentials>
    <PackedPolicySize>6</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata>
    <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
  </ResponseMetadata>
</AssumeRoleResponse>
`, { status: 200, headers: { 'content-type': 'text/xml' } })
  })
  return {
    handler,
    /** Every AssumeRole form received. */
    calls,
    /** The temporary credentials issued for an access key id (the fake Athena checks signatures with them). */
    issued: (accessKeyId: string) => issued.get(accessKeyId),
    /** How long credentials issued from now on last. */
    lifetime: (ms: number) => (lifetimeMs = ms),
  }
}
