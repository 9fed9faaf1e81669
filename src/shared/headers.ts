/**
 * Set by an API handler whose answer is worth compressing (a large result, a schema, a download). Most API answers
 * are a few hundred bytes, streamed without a length, where gzip costs more CPU than it saves bytes; the compression
 * middleware (src/http/middleware/compress.ts) reads and removes it.
 */
export const COMPRESSIBLE = 'x-sightline-compressible'
