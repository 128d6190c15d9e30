// Messages readers send through a site's contact form.
import type { Db } from "../../../db/client.ts";
import { contactMessages } from "../../../db/schema/index.ts";

export async function insertContactMessage(
  db: Db,
  userId: string,
  m: { name: string; email: string; subject: string; message: string },
) {
  await db.insert(contactMessages).values({ userId, ...m });
}
