import { linkRoutes } from '../_password-links.tsx'

/** An invitation link (reference §1.3): the invited user sets a password and is signed in. */
export default linkRoutes('invite')
