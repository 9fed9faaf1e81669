import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../../src/sign-in-limits.ts'

/**
 * The sign-in limits of a test app: production's counts and delays, but a refused attempt answers at once instead of
 * after its second's pause, so a test that signs in again after a refusal does not wait out real time. The tests of
 * the throttle itself give their own limits.
 */
export const WITHOUT_REFUSAL_PAUSES: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, refusalPauseMs: 0 }
