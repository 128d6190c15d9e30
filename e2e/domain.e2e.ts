// The Domain section in a real browser, with a real DNS server: add a domain, see and copy the
// records, Verify before and after they exist, see the badge — and the site answers there.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestDnsServer, type TestDnsServer } from "../src/testing/dns-server.ts";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const TARGET = "sites.bookplate.test";
let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer();
  dns.set(TARGET, { A: ["192.0.2.10"] });
});
afterAll(async () => {
  await dns?.close();
});
const e = setupE2E(() => ({ DNS_SERVERS: dns.address, DOMAIN_CNAME_TARGET: TARGET }));

browserDescribe("the Domain section", () => {
  it("connects a custom domain: records, copy, Verify with a diagnosis, then Verified and served", async () => {
    const author = await createAuthorAccount(e.server);
    const domain = `www.e2e-${Date.now().toString(36)}.com`;
    const page = await newPage(e);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: e.server.url });
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto(`${e.server.url}/dashboard/settings`);
    await page.getByRole("link", { name: "Domain" }).click();
    await page.getByRole("heading", { name: "Custom Domain" }).waitFor();
    expect(page.url()).toContain("/dashboard/domain");
    await page.getByText(`${author.subdomain}.localhost`).first().waitFor();
    expect(await page.getByRole("button", { name: "Verify" }).isDisabled()).toBe(true);
    // The same add-on price as the wizard and the FAQ (the price table), in the author's currency.
    await page.getByText("A custom domain adds £3.99 a month to your plan while it is on your site.").waitFor();

    await page.getByLabel("Domain", { exact: true }).fill("https://www.janeauthor.com");
    await page.getByRole("button", { name: "Save domain" }).click();
    await page.getByText("Enter the domain only, without http:// or https://").waitFor();

    await page.getByLabel("Domain", { exact: true }).fill(domain);
    await page.getByRole("button", { name: "Save domain" }).click();
    await page.getByText("Domain verification started. Please add the DNS records below.").waitFor();
    await page.getByRole("heading", { name: "DNS records" }).waitFor();
    await page.getByText(`_bookplate.${domain}`).waitFor();
    await page.getByText("Waiting for DNS").waitFor();
    const token = (await page.locator("td", { hasText: /^bookplate-verify-/ }).textContent())?.trim() ?? "";
    expect(token).toMatch(/^bookplate-verify-[0-9a-f]{32}$/);

    await page.getByRole("button", { name: "Copy the TXT record's value" }).click();
    await page.getByText("Copied to clipboard!").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("Not connected yet").waitFor();
    await page.getByText(`We can't find ${domain} in DNS`).waitFor();
    await shot(page, "domain-pending");

    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    dns.set(domain, { CNAME: TARGET });
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("Custom domain updated successfully!").waitFor();
    await page.getByText("Verified", { exact: true }).waitFor();
    expect(await page.getByText("Not connected yet").count()).toBe(0);
    await page.getByRole("link", { name: domain }).waitFor();
    await shot(page, "domain-verified");

    // The dashboard's card shows the address that works now.
    await page.goto(`${e.server.url}/dashboard`);
    await page.getByRole("heading", { name: "Your site is live" }).waitFor();
    expect(await page.getByTestId("site-address").textContent()).toBe(domain);
    await page.getByRole("link", { name: "Manage domain" }).waitFor();
    await page.getByText("£3.99 a month + £3.99 custom domain").waitFor();
    await shot(page, "domain-dashboard");

    const home = await e.server.onHost(domain, "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain(`<link rel="canonical" href="http://${domain}/"`);
    const old = await e.server.onHost(`${author.subdomain}.localhost`, "/");
    expect(old.status).toBe(301);

    // Removed after a question that says what happens: the free address serves the site again.
    await page.goto(`${e.server.url}/dashboard/domain`);
    await page.getByRole("button", { name: "Remove domain" }).click();
    const question = page.getByRole("dialog", { name: `Remove ${domain}?` });
    await question.getByText("Your site goes back to its free address").waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `domain-remove-${width}`, { viewport: true });
    }
    await question.getByRole("button", { name: "Remove domain" }).click();
    await page.getByText("Custom domain removed. Your site is back on its free address.").waitFor();
    await question.waitFor({ state: "detached" });
    expect(await page.getByLabel("Domain", { exact: true }).inputValue()).toBe("");
    expect((await e.server.onHost(`${author.subdomain}.localhost`, "/")).status).toBe(200);
  });
});
