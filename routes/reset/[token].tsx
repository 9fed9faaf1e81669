import { linkRoutes } from '../_password-links.tsx'

/** A password-reset link (reference §1.3): the user sets a new password and is signed in. */
export default linkRoutes('reset')
