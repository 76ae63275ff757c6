import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** false during the server render and the hydration pass, true afterwards. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
