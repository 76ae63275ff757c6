import { redirect } from "react-router";
import type { Route } from "./+types/auth.sign-out";
import { callAuthEndpoint, cookieHeaders } from "~/auth/call-auth.server";

/** POST only: revokes the session on the server and clears the cookie. */
export async function action({ request }: Route.ActionArgs) {
  const call = await callAuthEndpoint(request, "/sign-out");
  throw redirect("/auth?notice=signedOut", { headers: cookieHeaders(call) });
}

export function loader() {
  return new Response("Sign out with a POST from the sign-out button.", { status: 405, headers: { Allow: "POST" } });
}
