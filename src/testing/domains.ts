// What the custom-domain tests share: a real DNS server on 127.0.0.1 that the app's resolver
// asks, one real server per test file pointed at it, and the domain requests an author makes.
import { afterAll, beforeAll } from "vitest";
import { apiClient, type Json, readJson } from "./api-client.ts";
import { startTestDnsServer, type TestDnsServer } from "./dns-server.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { createAuthor, type TestAuthor } from "./users.ts";

/** Our CNAME target, and the address an apex domain's A record must name. */
export const TARGET = "sites.bookplate-hosting.com";
export const OUR_A = "192.0.2.10";

/** The test file's DNS server and app server, once `startDomainServers()` has started them. */
export let dns: TestDnsServer;
export let s: TestServer;

/** Starts the DNS server (answering for our target) and the app server using it. */
export function startDomainServers() {
  beforeAll(async () => {
    dns = await startTestDnsServer();
    dns.set(TARGET, { A: [OUR_A] });
    s = await startTestServer({
      DNS_SERVERS: dns.address,
      DOMAIN_CNAME_TARGET: TARGET,
      DOMAIN_A_RECORDS: OUR_A,
    });
  });
  afterAll(async () => {
    await s?.close();
    await dns?.close();
  });
}

/** A new author with a bio, so that the About page these tests read is one readers see (ADR 052). */
export async function authorWithBio() {
  const a = await createAuthor(s);
  await apiClient(s, a).profile.$patch({ json: { bio: "<p>Bio</p>" } });
  return a;
}

export const start = (a: TestAuthor, domain: string) => readJson(apiClient(s, a).domain.$put({ json: { domain } }));
export const verify = (a: TestAuthor) => readJson(apiClient(s, a).domain.verify.$post());
export const state = (a: TestAuthor) => readJson(apiClient(s, a).domain.$get());
/** The verification token in a domain answer's records. */
export const tokenOf = (body: Json) => body.records.find((r: Json) => r.type === "TXT").value as string;
