import { redirect } from "react-router";
import type { Route } from "./+types/newsletter.unsubscribe";
import { getDb } from "~/db/database.server";
import { BodyError, readFormBody } from "~/http/body.server";
import { requestEvidence } from "~/http/request.server";
import { unsubscribeByToken } from "~/services/newsletter/subscription.server";
import { cleanToken } from "~/services/newsletter/tokens.server";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * The List-Unsubscribe address (RFC 8058). A mail provider's one-click POST
 * (`List-Unsubscribe=One-Click`) unsubscribes at once, with no session and no page. Opening the
 * address in a browser (a GET, which link scanners also do) changes nothing: it leads to the
 * preferences page, where the person presses the button.
 */
export function loader({ request }: Route.LoaderArgs) {
  const token = cleanToken(new URL(request.url).searchParams.get("token"));
  return redirect(token ? `/newsletter/preferences?token=${token}` : "/newsletter/preferences");
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return plain(405, "Use POST.");
  const token = cleanToken(new URL(request.url).searchParams.get("token"));
  if (!token) return plain(404, "Unknown unsubscribe link.");
  try {
    // The body is `List-Unsubscribe=One-Click`; some clients send it empty. Read it so a huge or
    // malformed body is refused, but do not require it.
    await readFormBody(request);
  } catch (error) {
    if (error instanceof BodyError && error.status !== 415) return plain(error.status, error.message);
    if (!(error instanceof BodyError)) throw error;
  }
  const result = await unsubscribeByToken(await getDb(), token, "one-click", requestEvidence(request));
  return result.ok ? plain(200, "You are unsubscribed.") : plain(404, "Unknown unsubscribe link.");
}
