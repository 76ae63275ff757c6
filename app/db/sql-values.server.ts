import { getTableColumns, sql, type SQL, type Table } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";

/**
 * The column list and the parameterised values of one row, for hand-written statements
 * (data-modifying CTEs) that drizzle's builder cannot express. Keys are the schema's TS names.
 */
export function rowSql<T extends Table>(table: T, row: Partial<T["$inferInsert"]>) {
  const columns = getTableColumns(table);
  const names: SQL[] = [];
  const values: SQL[] = [];
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`${key} is not a column of the table`);
    names.push(sql`${sql.identifier(column.keyAsName ? toSnakeCase(column.name) : column.name)}`);
    values.push(sql`${value}`);
  }
  return { columns: sql.join(names, sql`, `), values: sql.join(values, sql`, `) };
}
