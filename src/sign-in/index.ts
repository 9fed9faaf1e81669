/** The front door of src/sign-in/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { searchFilter } from './directory.ts'
export { ldapSignIn } from './ldap.ts'
export { signIn } from './password.ts'
