import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** PEM files made with openssl: a CA, a server certificate for 127.0.0.1 and a client certificate, both signed by it. */
export interface Certificates {
  dir: string
  ca: string
  serverCert: string
  serverKey: string
  clientCert: string
  clientKey: string
}

export function makeCertificates(dir: string): Certificates {
  const file = (name: string) => path.join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Sightline test CA', '-keyout', 'ca.key', '-out', 'ca.crt')
  fs.writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
  fs.writeFileSync(file('client.ext'), 'extendedKeyUsage=clientAuth\n')
  for (const who of ['server', 'client']) {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${who}`, '-keyout', `${who}.key`, '-out', `${who}.csr`)
    openssl('x509', '-req', '-in', `${who}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', `${who}.ext`, '-out', `${who}.crt`)
  }
  return { dir, ca: file('ca.crt'), serverCert: file('server.crt'), serverKey: file('server.key'), clientCert: file('client.crt'), clientKey: file('client.key') }
}
