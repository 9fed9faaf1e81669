import { Hono } from 'hono'
import { Redirect } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { SamlRefused, samlMetadataXml } from '../../src/sign-in/index.ts'

/** SAML metadata describing Sightline to the identity provider (the established tool's address). */
export default new Hono<Env>()
  .get('/', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    try {
      const xml = await samlMetadataXml(c.get('deps'), org)
      return c.body(xml, 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' })
    } catch (error) {
      if (!(error instanceof SamlRefused)) throw error
      return c.json({ message: error.message }, 404)
    }
  })
