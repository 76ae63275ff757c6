// npm run admin:create -- <email> <password>
// Creates a verified admin, or promotes (and verifies) an existing account. Works beside a running
// server (through its database socket on the embedded database) or with the server stopped.
import { createOrPromoteAdmin } from "~/auth/admin-account.server";
import { getAuth } from "~/auth/instance.server";
import { closeDatabase, getDb, setDatabaseRole } from "~/db/database.server";
import { commandActor } from "./command-actor";

const [email, password] = process.argv.slice(2);
if (!email || !email.includes("@")) {
  console.error("usage: npm run admin:create -- <email> <password>");
  process.exit(2);
}
setDatabaseRole("command");
const db = await getDb().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const result = await createOrPromoteAdmin(db, await getAuth(), { email, password, actor: commandActor("admin:create") }).catch((error: Error) => {
  console.error(`Could not create the account: ${error.message}`);
  process.exit(1);
});
await closeDatabase();
if (!result.ok) {
  console.error(`${result.message}${result.field === "password" ? " usage: npm run admin:create -- <email> <password>" : ""}`);
  process.exit(2);
}
console.log(result.created ? `Admin ${result.email} created; sign in at /auth.` : `${result.email} is now an admin.`);
process.exit(0);
