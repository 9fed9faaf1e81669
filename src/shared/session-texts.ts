/** The words of a profile's signed-in sessions. */
export const sessionTexts = {
  heading: 'Signed-in sessions',
  intro: 'Browsers where this account is signed in. End any you do not recognise.',
  device: 'Device',
  address: 'Address',
  lastSeen: 'Last seen',
  thisSession: 'This session',
  end: 'End session',
  endLabel: (device: string) => `End session on ${device}`,
  endAll: 'End all sessions',
  endAllNote: 'Signs this user out everywhere, at once.',
  none: 'No signed-in sessions.',
  unknownAddress: 'unknown',
}
