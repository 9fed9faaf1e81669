/** The front door of src/sign-in/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { breakGlassTexts, issueSignInLink, signInLinkHolder, useSignInLink } from './break-glass.ts'
export { searchFilter } from './directory.ts'
export { ldapSignIn } from './ldap.ts'
export { finishSignIn, oidcTexts, startSignIn } from './oidc.ts'
export type { FlowMethod } from './oidc.ts'
export { signIn } from './password.ts'
export { proxySignIn } from './proxy.ts'
export { recordRefusal, REFUSALS_PER_MINUTE } from './refusals.ts'
export { forgetSamlMetadata } from './saml-metadata.ts'
export { finishSamlSignIn, samlMetadataXml, SamlRefused, startSamlSignIn } from './saml.ts'
