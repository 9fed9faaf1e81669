/** The texts about Sightline's public origin (src/settings/public-origin.ts), shared by the server, the settings form and the shell. */
export const originTexts = {
  label: 'Sightline’s address',
  hint: 'The address people open Sightline at, like https://sightline.example.com. Links in mails, notifications and shared dashboards point here.',
  fromEnvironment: 'Set by SIGHTLINE_BASE_URL in the server’s environment; change it there.',
  setByEnvironment: 'Sightline’s address is set by SIGHTLINE_BASE_URL in the server’s environment and cannot be changed here.',
  invalid: 'Sightline’s address must be an address like https://sightline.example.com.',
  scheme: 'Sightline’s address must start with http:// or https://.',
  userinfo: 'Sightline’s address must not contain a user name or password.',
  onlyOrigin: 'Sightline’s address must be only the scheme, host and port (no path, query or fragment), like https://sightline.example.com.',
  banner: 'Sightline does not know its own address yet, so it mails no invitation, password-reset or verification links.',
  bannerAction: 'Set it in the General settings',
  linkNotMailed: 'Sightline does not know its own address yet (an admin sets it in the General settings), so the link was not mailed.',
  notSet: 'Sightline’s address is not set yet, so no link can be mailed. Please ask an admin to set it in the General settings.',
}
