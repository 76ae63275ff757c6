// npm run db:migrate: applies pending migrations (the server also does this at start) and seeds.
import { closeDatabase, getDatabase } from "~/db/database.server";

const database = await getDatabase();
console.log(`migrations applied (${database.kind})`);
await closeDatabase();
