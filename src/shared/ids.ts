// Row ids as they appear in addresses: UUIDs, in any case (PostgreSQL writes them lower-case).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` can be a row's id. Anything else is no row, and never reaches the database. */
export const isUuid = (s: string | undefined): s is string => s !== undefined && UUID.test(s);
