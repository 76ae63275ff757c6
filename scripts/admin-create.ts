// npm run admin:create -- <email> <password>
// Creates a verified admin, or promotes (and verifies) an existing account. On the embedded
// database stop the server first (one process per database).
import { eq } from "drizzle-orm";
import { getAuth } from "~/auth/instance.server";
import { ADMIN_ROLE } from "~/auth/auth.server";
import { closeDatabase, getDb } from "~/db/database.server";
import { auditLog, user } from "~/db/schema";

const [email, password] = process.argv.slice(2);
if (!email || !email.includes("@")) {
  console.error("usage: npm run admin:create -- <email> <password>");
  process.exit(2);
}
const address = email.trim().toLowerCase();
const db = await getDb().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const [existing] = await db.select().from(user).where(eq(user.email, address));
if (!existing) {
  if (!password) {
    console.error("A new admin needs a password: npm run admin:create -- <email> <password>");
    process.exit(2);
  }
  const auth = await getAuth();
  try {
    await auth.api.signUpEmail({ body: { email: address, password, name: address.split("@")[0]! } });
  } catch (error) {
    console.error(`Could not create the account: ${(error as Error).message}`);
    process.exit(1);
  }
}
await db.update(user).set({ role: ADMIN_ROLE, emailVerified: true, updatedAt: new Date() }).where(eq(user.email, address));
await db.insert(auditLog).values({ actor: "admin:create", action: existing ? "user.promote" : "user.create_admin", entity: "user", after: address });
console.log(existing ? `${address} is now an admin.` : `Admin ${address} created; sign in at /auth.`);
await closeDatabase();
process.exit(0);
