/**
 * A link from the server as the admin should copy it. The server builds links on Sightline's public origin only; while
 * none is set it answers a root-relative one (`/invite/<token>`), which is completed here with the address this
 * browser reached Sightline at, the one the admin knows works.
 */
export const isRootRelative = (link: string) => link.startsWith('/') && !link.startsWith('//')

export function absoluteLink(link: string): string {
  if (!isRootRelative(link) || typeof window === 'undefined') return link
  return new URL(link, window.location.origin).href
}
