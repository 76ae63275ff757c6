import { userInfo } from "node:os";
import { commandLineActor } from "~/lib/audit-texts";

/** The system user running the command: a user id without a name (some containers) gives USER, if set. */
function systemUser() {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "";
  }
}

/** Who the audit log names for a change made by `npm run <command>`: the command and the system user. */
export function commandActor(command: string) {
  return commandLineActor(command, systemUser());
}
