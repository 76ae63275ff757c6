import type { BetterAuthOptions } from "better-auth";
import { APIError } from "better-auth/api";
import type { DBAdapter, DBTransactionAdapter } from "better-auth/types";
import { isUniqueViolation } from "~/db/unique-violation";

type AdapterFactory = (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions>;
type Operation = "create" | "update";

/**
 * better-auth checks an address or number before it writes it, so two requests at once (two
 * processes on PostgreSQL) can both pass and the second write meets the unique constraint. Each
 * conflict a person can cause answers what the checked path answers, with the database's error as
 * the cause:
 * - a sign-up for an address taken in between: 403, which the sign-up endpoint turns into the
 *   same neutral "account created" answer it gives a known address (no account enumeration);
 * - an e-mail change confirmed for an address taken since: the address-taken refusal (422);
 * - a phone number confirmed by another account in between: the phone plugin's refusal (400).
 */
function refusalFor(error: unknown, operation: Operation): APIError | null {
  if (isUniqueViolation(error, "user_email_unique")) {
    return operation === "create"
      ? APIError.from("FORBIDDEN", { code: "USER_ALREADY_EXISTS", message: "User already exists." }, { cause: error })
      : APIError.from("UNPROCESSABLE_ENTITY", { code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: "User already exists. Use another email." }, { cause: error });
  }
  if (isUniqueViolation(error, "user_phoneNumber_unique")) {
    return APIError.from("BAD_REQUEST", { code: "PHONE_NUMBER_EXIST", message: "Phone number already exists" }, { cause: error });
  }
  return null;
}

function refusing<A extends DBTransactionAdapter<BetterAuthOptions>>(adapter: A): A {
  const guard = async <T>(operation: Operation, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw refusalFor(error, operation) ?? error;
    }
  };
  return {
    ...adapter,
    create: (data) => guard("create", () => adapter.create(data)),
    update: (data) => guard("update", () => adapter.update(data)),
    updateMany: (data) => guard("update", () => adapter.updateMany(data)),
  };
}

/** The adapter with these answers, also inside better-auth's transactions (sign-up runs in one). */
export function withAccountConflicts(factory: AdapterFactory): AdapterFactory {
  return (options) => {
    const adapter = factory(options);
    return { ...refusing(adapter), transaction: (callback) => adapter.transaction((trx) => callback(refusing(trx))) };
  };
}
