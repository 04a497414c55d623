/**
 * Runs `done` once a mutation started with `mutateAsync` succeeds, even if the component that started it has
 * unmounted by then. TanStack Query skips the callbacks given to `mutate` when their observer unmounted first, and
 * a change that moves a record elsewhere on the page (a cancelled visit leaves the upcoming list, taking its card
 * and dialog with it) unmounts it as soon as the refetched list renders. A failure is left to the mutation's own
 * `error`, which the form shows while it is there.
 */
export function afterMutation<T>(mutation: Promise<T>, done: (result: T) => void): void {
  mutation.then(done, () => undefined);
}
