import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  // No SMTP: mail must still reach the outbox (and the log) so a local user can follow links.
  s = await startTestServer({ SMTP_URL: "" });
});
afterAll(async () => {
  await s?.close();
});

describe("mail without SMTP", () => {
  it("keeps the verification mail, with its link, in the outbox", async () => {
    const res = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Local", email: "local@example.com", password: "correct horse battery" },
    });
    expect(res.status).toBe(200);
    const rows = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, "local@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("logged");
    expect(rows[0]?.text).toMatch(/\/api\/auth\/verify-email\?token=/);
    expect(s.smtp.mails).toHaveLength(0);
  });
});
