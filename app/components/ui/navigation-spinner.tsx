import { useNavigation } from "react-router";

/** "Loading" while the next page (and the signed-in state it needs) is on its way. */
export function NavigationSpinner() {
  const navigation = useNavigation();
  if (navigation.state !== "loading") return null;
  return (
    <div role="status" className="fixed right-4 top-20 z-50 flex items-center gap-2 rounded-full bg-primary px-4 py-2 text-sm text-primary-foreground shadow-lg">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-primary-foreground border-t-transparent" aria-hidden="true" />
      Loading
    </div>
  );
}
