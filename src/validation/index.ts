/** The front door of src/validation/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { AddressRanges, isAddress, normalizeAddress, parseRange } from './ip-ranges.ts'
export { apiListQuery } from './list-query.ts'
export { jsonBytes, limitedJson, limitedText, LIMITS, objectBody, tooLarge, tooLong, validate } from './validate.ts'
