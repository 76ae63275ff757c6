// npm run db:migrate: applies pending migrations (the server also does this at start) and seeds.
import { closeDatabase, getDatabase, setDatabaseRole } from "~/db/database.server";

setDatabaseRole("command");

const database = await getDatabase();
console.log(`migrations applied (${database.kind})`);
await closeDatabase();
