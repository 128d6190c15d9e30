import type { Role } from "../../../shared/enums.ts";

/** A member of staff, as the guard read them from the database: who acts, and with what role. */
export type Staff = { id: string; email: string; role: Role };
