// The page a contact-address verification link opens, on the app host (ADR 014).
//
// GET  /contact-email/verify?token=…  a "Confirm this address" button (nothing changes yet: mail
//                                     scanners that follow links confirm nothing)
// POST /contact-email/verify          form { token } → 200 "verified", or 400 with a clear page
// The token alone says whose address it is: no session is needed (the link may be opened on the
// mailbox owner's device), and a token proves only the address it was mailed to.
import { Hono } from "hono";
import { CONTACT_MESSAGES } from "../../../shared/schemas/contact-settings.ts";
import type { AppVars } from "../../http/context.ts";
import { verifyContactEmail } from "./contact-email.service.ts";

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>${esc(title)} — Bookplate</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#0f172a}
.card{border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h1{font-size:1.35rem;margin:0 0 .75rem}p{line-height:1.5;color:#334155}
button{margin-top:.5rem;padding:.6rem 1rem;border-radius:.5rem;border:0;background:#4f46e5;color:#fff;font-weight:600;cursor:pointer}
a{color:#4f46e5}</style></head><body><main class="card">${body}</main></body></html>`;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const MAX_FORM_BYTES = 4 * 1024;

function invalid() {
  return page(
    "Link not valid",
    `<h1>Link not valid</h1><p>${esc(CONTACT_MESSAGES.linkInvalid)}</p><p><a href="/dashboard/contact">Contact Settings</a></p>`,
  );
}

export function contactEmailRoutes() {
  const r = new Hono<AppVars>();

  r.get("/contact-email/verify", (c) => {
    c.header("Cache-Control", "no-store");
    const token = c.req.query("token") ?? "";
    if (!TOKEN.test(token)) return c.html(invalid(), 400);
    return c.html(
      page(
        "Confirm your contact address",
        `<h1>Confirm your contact address</h1><p>Press the button to receive the messages from this author's website contact form at this address.</p>
<form method="post" action="/contact-email/verify"><input type="hidden" name="token" value="${esc(token)}"><button type="submit">Confirm this address</button></form>`,
      ),
    );
  });

  r.post("/contact-email/verify", async (c) => {
    c.header("Cache-Control", "no-store");
    // A page of ours posts here; another site cannot make a browser do it.
    if (c.req.header("sec-fetch-site") === "cross-site") return c.html(invalid(), 403);
    if (Number(c.req.header("content-length") ?? Number.POSITIVE_INFINITY) > MAX_FORM_BYTES) {
      return c.html(invalid(), 413, { Connection: "close" });
    }
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const token = typeof form.token === "string" ? form.token : "";
    const email = await verifyContactEmail(c.get("deps").database.db, token);
    if (!email) return c.html(invalid(), 400);
    return c.html(
      page(
        "Contact address verified",
        `<h1>Contact address verified</h1><p>Messages from the website's contact form will now be sent to <strong>${esc(email)}</strong>.</p><p>You can close this page.</p>`,
      ),
    );
  });

  return r;
}
