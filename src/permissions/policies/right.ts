import { Forbidden } from '../../errors.ts'

/**
 * One right of a caller on an object: `true`, or the refusal text the caller is shown (a 403's message). Policies
 * answer a whole object of these, so services, pages and serializers read the same decision.
 */
export type Right = true | string

/** The refusal when nothing more precise is worth telling (the established tool's words). */
export const NO_PERMISSION = "You don't have permission to access this resource."

/** `true` when the condition holds, else the refusal. */
export const grantIf = (condition: boolean, refusal: string = NO_PERMISSION): Right => (condition ? true : refusal)

/** Every one of these rights, or the first refusal among them (conditions are checked in the order a caller fixes them). */
export const allOf = (...rights: Right[]): Right => rights.find((r) => r !== true) ?? true

export const isGranted = (right: Right): right is true => right === true

/** The guard: 403 with the refusal's text unless the right is granted. */
export function requireRight(right: Right): void {
  if (right !== true) throw new Forbidden(right)
}
