import { customType, timestamp } from "drizzle-orm/pg-core";

/** Columns several tables share; not tables, so kept out of the schema module. */
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
