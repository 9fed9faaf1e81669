import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from 'ldapts'
import { freePort } from '../../src/db/index.ts'
import { WAIT_MS } from './wait.ts'

export const SUFFIX = 'dc=example,dc=com'
export const ROOT_DN = `cn=admin,${SUFFIX}`
export const ROOT_PASSWORD = 'directory-secret'
export const PEOPLE_DN = `ou=people,${SUFFIX}`

export interface DirectoryUser {
  cn: string
  password: string
  mail?: string
  displayName?: string
  employeeType?: string
}

export interface Slapd {
  url: string
  port: number
  stop(): Promise<void>
}

const SLAPD = '/usr/sbin/slapd'
const SLAPADD = '/usr/sbin/slapadd'

/** cn=config for one throwaway directory: the mdb backend under SUFFIX, passwords readable by nobody but for binding. */
function configLdif(dir: string): string {
  return `dn: cn=config
objectClass: olcGlobal
cn: config
olcPidFile: ${dir}/slapd.pid

dn: cn=module{0},cn=config
objectClass: olcModuleList
cn: module{0}
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

include: file:///etc/ldap/schema/core.ldif
include: file:///etc/ldap/schema/cosine.ldif
include: file:///etc/ldap/schema/inetorgperson.ldif

dn: olcDatabase={-1}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {-1}frontend

dn: olcDatabase={0}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {0}config
olcAccess: {0}to * by * none

dn: olcDatabase={1}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {1}mdb
olcSuffix: ${SUFFIX}
olcRootDN: ${ROOT_DN}
olcRootPW: ${ROOT_PASSWORD}
olcDbDirectory: ${dir}/data
olcAccess: {0}to attrs=userPassword by anonymous auth by * none
olcAccess: {1}to * by users read by * none
`
}

function dataLdif(users: DirectoryUser[]): string {
  const entries = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example`,
    `dn: ${PEOPLE_DN}\nobjectClass: organizationalUnit\nou: people`,
    ...users.map((u) => [
      `dn: cn=${u.cn},${PEOPLE_DN}`, 'objectClass: inetOrgPerson', `cn: ${u.cn}`, `sn: ${u.cn}`,
      `userPassword: ${u.password}`,
      ...(u.mail ? [`mail: ${u.mail}`] : []),
      ...(u.displayName ? [`displayName: ${u.displayName}`] : []),
      ...(u.employeeType ? [`employeeType: ${u.employeeType}`] : []),
    ].join('\n')),
  ]
  return entries.join('\n\n') + '\n'
}

function slapadd(args: string[], ldif: string) {
  const result = spawnSync(SLAPADD, args, { input: ldif, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`slapadd ${args.join(' ')} failed: ${result.stderr}`)
}

/**
 * Debian's slapd as a child process on a free port of 127.0.0.1, with its own cn=config and data in a temporary
 * directory (scripts/test-engines.sh installs it). Anonymous users can only bind: searching needs a bind, as in
 * most company directories.
 */
export async function startSlapd(users: DirectoryUser[]): Promise<Slapd> {
  if (!fs.existsSync(SLAPD)) throw new Error('slapd is not installed: run scripts/test-engines.sh')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-slapd-'))
  fs.mkdirSync(path.join(dir, 'config'))
  fs.mkdirSync(path.join(dir, 'data'))
  slapadd(['-n0', '-F', path.join(dir, 'config')], configLdif(dir))
  slapadd(['-n1', '-F', path.join(dir, 'config')], dataLdif(users))
  const port = await freePort()
  const url = `ldap://127.0.0.1:${port}`
  // -d keeps slapd in the foreground, so it is this process's child and ends with it
  const child = spawn(SLAPD, ['-F', path.join(dir, 'config'), '-h', `${url}/`, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForDirectory(child, url, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, port, stop }
}

async function waitForDirectory(child: ChildProcess, url: string, output: () => string) {
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited early (${child.exitCode}):\n${output()}`)
    const client = new Client({ url, connectTimeout: 1_000 })
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD)
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`slapd did not answer within ${WAIT_MS} ms (${String(error)}):\n${output()}`)
    } finally {
      await client.unbind().catch(() => {})
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}
