import { useRef, useState } from 'react'

/** What a model's reducer returns: the next state and the side effects the component is to carry out. */
export interface Step<S, C> {
  state: S
  commands: C[]
}

/** Steps with no side effect are the common case. */
export const only = <S, C = never>(state: S): Step<S, C> => ({ state, commands: [] })

export type Dispatch<E> = (event: E) => Promise<void>

/**
 * Runs a pure model (`reduce`) inside a component: each event gives the next state, which is drawn, and the
 * commands, which `run` carries out. The state lives in a ref too, so events dispatched one after the other (before
 * a render) each see the state the previous one left. The returned promise settles when the event's commands have,
 * so a caller can wait for a save's whole effect (a confirmation stays busy until then).
 */
export function useModel<S, E, C>(reduce: (state: S, event: E) => Step<S, C>, initial: () => S,
  run: (command: C, dispatch: Dispatch<E>) => void | Promise<void>): [S, Dispatch<E>] {
  const [state, setState] = useState(initial)
  const current = useRef(state)
  const runner = useRef(run)
  runner.current = run
  const dispatch = useRef<Dispatch<E>>(async (event) => {
    const step = reduce(current.current, event)
    current.current = step.state
    setState(step.state)
    for (const command of step.commands) await runner.current(command, dispatch.current)
  })
  return [state, dispatch.current]
}
