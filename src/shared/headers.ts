/**
 * Set by an API handler whose answer is worth compressing (a large result, a schema, a download). Most API answers
 * are a few hundred bytes, streamed without a length, where gzip costs more CPU than it saves bytes; the compression
 * middleware (src/http/middleware/compress.ts) reads and removes it.
 */
export const COMPRESSIBLE = 'x-sightline-compressible'
/**
 * COMPRESSIBLE's value for an answer of many MB (a result of several chunks): compressed at the cheapest setting,
 * which spends a third of the CPU for output about a quarter larger.
 */
export const COMPRESSIBLE_LARGE = 'large'
