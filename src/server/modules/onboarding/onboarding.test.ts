import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { domainVerifications, profiles, subscriptions, websites } from "../../../db/schema/index.ts";
import {
  apiClient,
  type Caller,
  type Client,
  callApi,
  expectStatus,
  type JsonBody,
  readJson,
} from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createSignedInUser } from "../../../testing/users.ts";

startFileServer();

const newUser = () => createSignedInUser(s, { prefix: "onb" });

type CompleteBody = JsonBody<Client["onboarding"]["complete"]["$post"]>;
const valid = (over: Partial<CompleteBody> = {}): CompleteBody => ({
  name: "Jane Author",
  email: "jane@example.com",
  websiteName: "Jane's Books",
  subdomain: "Jane-Author",
  domainOption: "free",
  tier: "midi",
  currency: "USD",
  ...over,
});
const complete = (u: Caller, over: Partial<CompleteBody> = {}) =>
  readJson(apiClient(s, u).onboarding.complete.$post({ json: valid(over) }));
const stateOf = (u: Caller) => expectStatus(apiClient(s, u).onboarding.$get(), 200);

const db = () => s.database.db;
async function rowsFor(userId: string) {
  const [p] = await db().select().from(profiles).where(eq(profiles.id, userId));
  const w = await db().select().from(websites).where(eq(websites.userId, userId));
  const sub = await db().select().from(subscriptions).where(eq(subscriptions.userId, userId));
  const dv = await db().select().from(domainVerifications).where(eq(domainVerifications.userId, userId));
  return { profile: p, websites: w, subscriptions: sub, verifications: dv };
}

const availability = (q: string) => apiClient(s).onboarding["subdomain-availability"].$get({ query: { subdomain: q } });
const avail = (q: string) => expectStatus(availability(q), 200);

describe("subdomain availability", () => {
  it("normalises, refuses short and reserved names, and compares case-insensitively", async () => {
    expect(await avail("Mary.Writes-Books!")).toEqual({ subdomain: "marywritesbooks", available: true });
    expect(await avail("a-b")).toEqual({ subdomain: "ab", available: false, reason: "too_short" });
    expect(await avail("WWW")).toMatchObject({ subdomain: "www", available: false, reason: "reserved" });
    expect(await avail("Book-plate")).toMatchObject({ available: false, reason: "reserved" });
    const u = await newUser();
    expect((await complete(u, { subdomain: "takenname" })).status).toBe(201);
    expect(await avail("TakenName")).toEqual({ subdomain: "takenname", available: false, reason: "taken" });
    expect(await avail("taken-name")).toMatchObject({ available: false, reason: "taken" });
  });

  it("needs the parameter and refuses absurd lengths", async () => {
    // Deliberately bad queries (no parameter, an overlong value), sent by path.
    expect((await s.api("/api/onboarding/subdomain-availability")).status).toBe(400);
    expect((await s.api(`/api/onboarding/subdomain-availability?subdomain=${"a".repeat(500)}`)).status).toBe(400);
    expect(await avail("a".repeat(64))).toMatchObject({ available: false, reason: "too_long" });
  });
});

describe("onboarding", () => {
  it("prefills from the signed-in user and needs a session", async () => {
    expect((await readJson(apiClient(s).onboarding.$get())).status).toBe(401);
    const u = await newUser();
    expect(await stateOf(u)).toEqual({
      name: "Jane Author",
      email: u.email,
      onboardingCompleted: false,
      website: null,
      sitesDomain: `localhost:${s.port}`,
    });
  });

  it("creates profile, website and trial subscription, then refuses a second time", async () => {
    const u = await newUser();
    const before = Date.now();
    const res = await complete(u, { subdomain: "Happy-Path", bio: "I write.", genre: "Mystery" });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.checkoutUrl).toMatch(/\/billing\/sandbox\/checkout\?session=/);
    expect(body.website).toEqual({ subdomain: "happypath", customDomain: null, domainOption: "free" });
    const r = await rowsFor(u.id);
    expect(r.profile).toMatchObject({
      onboardingCompleted: true,
      bio: "I write.",
      genre: "Mystery",
      name: "Jane Author",
    });
    expect(r.profile?.onboardingCompletedAt).toBeTruthy();
    expect(r.websites).toHaveLength(1);
    expect(r.websites[0]).toMatchObject({ subdomain: "happypath", websiteName: "Jane's Books", domainOption: "free" });
    expect(r.subscriptions[0]).toMatchObject({
      status: "trial",
      tier: "midi",
      currency: "USD",
      customDomainAddon: false,
    });
    const trialMs = (r.subscriptions[0]?.trialEndsAt?.getTime() ?? 0) - before;
    expect(trialMs).toBeGreaterThan(13.9 * 864e5);
    expect(trialMs).toBeLessThan(14.1 * 864e5);
    const state = await stateOf(u);
    expect(state).toMatchObject({
      onboardingCompleted: true,
      website: {
        websiteName: "Jane's Books",
        subdomain: "happypath",
        domainOption: "free",
        customDomain: null,
        customDomainVerified: false,
      },
    });
    // Another author sees only their own (empty) state, never this website.
    const other = await newUser();
    const theirs = await stateOf(other);
    expect(theirs).toMatchObject({ onboardingCompleted: false, website: null });
    const status = await expectStatus(apiClient(s, u).subscription.status.$get(), 200);
    expect(status).toMatchObject({ tier: "midi", status: "trial" });

    const again = await complete(u, { subdomain: "another-one" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: "already_onboarded",
      message: expect.stringMatching(/already set up/),
    });
    expect((await rowsFor(u.id)).websites).toHaveLength(1);
    expect((await avail("anotherone")).available).toBe(true);
  });

  it("sets up an own domain as a claim on a site with its subdomain, with a verification token and the add-on", async () => {
    const u = await newUser();
    const without = await complete(u, {
      subdomain: undefined,
      domainOption: "custom",
      ownDomain: "www.janeauthor.com",
    });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatchObject({ field: "subdomain", message: "Please choose a subdomain" });
    const sub = `owndomain${Date.now() % 1_000_000}`;
    const res = await complete(u, { subdomain: sub, domainOption: "custom", ownDomain: "https://www.JaneAuthor.com/" });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.domainVerification.domain).toBe("www.janeauthor.com");
    const r = await rowsFor(u.id);
    // The site answers on its subdomain until the domain is verified in Settings → Domain.
    expect(r.websites[0]).toMatchObject({ subdomain: sub, customDomain: null, domainOption: "custom" });
    expect(r.verifications[0]).toMatchObject({ domain: "www.janeauthor.com", verified: false });
    expect(r.verifications[0]?.verificationToken).toBe(body.domainVerification.token);
    expect(r.subscriptions[0]?.customDomainAddon).toBe(true);
  });

  it.each([
    [{ name: "" }, "Please fill in all required fields", "name"],
    [{ name: undefined }, "Please fill in all required fields", "name"],
    [{ email: "  " }, "Please fill in all required fields", "email"],
    [{ websiteName: "" }, "Please fill in all required fields", "websiteName"],
    [{ subdomain: "" }, "Please choose a subdomain", "subdomain"],
    [{ subdomain: "--" }, "Please choose a subdomain", "subdomain"],
    [{ subdomain: undefined }, "Please choose a subdomain", "subdomain"],
    [{ domainOption: "custom", ownDomain: "" }, "Please enter your domain name", "ownDomain"],
    [{ domainOption: "custom" }, "Please enter your domain name", "ownDomain"],
    [
      { domainOption: "custom", ownDomain: "not a domain" },
      "Please enter a valid domain name, like janeauthor.com",
      "ownDomain",
    ],
    [{ tier: undefined }, "Please select a plan", "tier"],
    [{ tier: "gold" }, "Please select a plan", "tier"],
    [{ tier: "MINI" }, "Please select a plan", "tier"],
    [{ currency: "JPY" }, "Currency must be one of GBP, USD, EUR, CAD, AUD", "currency"],
    [{ domainOption: "premium" }, "Domain option must be 'free' or 'custom'", "domainOption"],
    [{ subdomain: "ab" }, "Your subdomain must be 3 to 63 letters or digits", "subdomain"],
    [{ name: "x".repeat(101) }, "Full Name must be at most 100 characters", "name"],
    [{ email: "nope" }, "Please enter a valid email address", "email"],
    [{ subdomain: "x".repeat(300) }, "Subdomain is too long", "subdomain"],
    [{ tier: -1 }, "Please select a plan", "tier"],
    [{ bio: "x".repeat(6000) }, "Bio must be at most 5000 characters", "bio"],
    [{ userId: "someone-else" }, "Unknown field: userId", "userId"],
    [{ status: "active" }, "Unknown field: status", "status"],
  ])("refuses %j with '%s' and changes nothing", async (over, message, field) => {
    const u = await newUser();
    // Sent by path: the table holds shapes the typed client refuses (wrong types, unknown fields).
    const res = await callApi(s, u, "POST", "/api/onboarding/complete", { ...valid(), ...over });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ message, field });
    const r = await rowsFor(u.id);
    expect(r.profile?.onboardingCompleted).toBe(false);
    expect(r.websites).toHaveLength(0);
    expect(r.subscriptions).toHaveLength(0);
  });

  it("refuses a reserved subdomain with the taken message", async () => {
    const u = await newUser();
    const res = await complete(u, { subdomain: "Admin" });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("This subdomain is already taken. Please choose another one.");
  });

  it("needs a session and JSON", async () => {
    expect((await complete({ cookie: "" })).status).toBe(401);
    const u = await newUser();
    // A form body, not JSON: sent by path on purpose.
    const res = await s.api("/api/onboarding/complete", { method: "POST", cookie: u.cookie, body: "name=x" });
    expect(res.status).toBe(415);
  });

  it("rolls everything back when the subdomain is taken between check and submit, and lets the author retry", async () => {
    const a = await newUser();
    const b = await newUser();
    expect((await avail("Race-Me")).available).toBe(true);
    expect((await complete(b, { subdomain: "raceme" })).status).toBe(201);
    const aRes = await complete(a, { subdomain: "RACE-me", name: "Changed Name" });
    expect(aRes.status).toBe(409);
    expect(aRes.body.error).toMatchObject({
      code: "subdomain_taken",
      message: "This subdomain is already taken. Please choose another one.",
      field: "subdomain",
    });
    const r = await rowsFor(a.id);
    // The profile update ran first inside the transaction; it must be gone too.
    expect(r.profile).toMatchObject({ onboardingCompleted: false, name: "Jane Author" });
    expect(r.websites).toHaveLength(0);
    expect(r.subscriptions).toHaveLength(0);
    expect((await complete(a, { subdomain: "raceme2" })).status).toBe(201);
  });

  it("lets exactly one of two simultaneous authors have a subdomain", async () => {
    const [a, b] = await Promise.all([newUser(), newUser()]);
    const results = await Promise.all([a, b].map((u) => complete(u, { subdomain: "samename" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe("availability rate limit", () => {
  it("slows down one address that asks too often", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) {
      statuses.push((await availability(`probe${i}`)).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((x) => x === 200).length).toBeLessThanOrEqual(120);
  });
});
