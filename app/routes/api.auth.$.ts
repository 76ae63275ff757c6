import type { Route } from "./+types/api.auth.$";
import { getAuth } from "~/auth/instance.server";

/** better-auth's own endpoints (sign-in, sign-up, verify-email, reset, two-factor, admin). */
export async function loader({ request }: Route.LoaderArgs) {
  return (await getAuth()).handler(request);
}

export async function action({ request }: Route.ActionArgs) {
  return (await getAuth()).handler(request);
}
