/**
 * An island model's `api` for unit tests: records each call's arguments and answers with `answer` (or fails with it,
 * when it is an Error), so a model's commands are checked without a server.
 */
export function fakeApi<Api>(answer: unknown = {}): { call: Api; calls: unknown[][] } {
  const calls: unknown[][] = []
  const call = async (...args: unknown[]) => {
    calls.push(args)
    if (answer instanceof Error) throw answer
    return answer
  }
  return { call: call as Api, calls }
}
