import type { Route } from "./+types/api.auth.$";
import { withRetryAfter } from "~/auth/call-auth.server";
import { getAuth } from "~/auth/instance.server";
import { BodyError, bodyErrorResponse, guardedCopy } from "~/http/body.server";

/** better-auth's own endpoints (sign-in, sign-up, verify-email, reset, two-factor, admin). */
export async function loader({ request }: Route.LoaderArgs) {
  return withRetryAfter(await (await getAuth()).handler(request));
}

export async function action({ request }: Route.ActionArgs) {
  let checked: Request;
  try {
    checked = await guardedCopy(request);
  } catch (error) {
    if (error instanceof BodyError) return bodyErrorResponse(error);
    throw error;
  }
  return withRetryAfter(await (await getAuth()).handler(checked));
}
