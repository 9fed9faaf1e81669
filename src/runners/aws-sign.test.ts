import { describe, expect, it } from 'vitest'
import { signV4 } from './aws-sign.ts'

describe('AWS Signature Version 4', () => {
  it('signs the documentation\'s example request to the documented signature', () => {
    // the IAM ListUsers example of AWS's Signature Version 4 documentation, with its example credentials
    const headers = signV4({
      method: 'GET', url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'), body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, region: 'us-east-1', service: 'iam',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }, amzDate: '20150830T123600Z',
    })
    expect(headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, ' +
      'SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7')
  })
})
