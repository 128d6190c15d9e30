// The contact address in a real browser (ADR 014): the author sets it, the screen says a link was
// mailed and where messages go meanwhile, a new link can be asked for, and the link from the mail
// verifies the address.
import { expect, it } from "vitest";
import {
  browserDescribe,
  createAuthorAccount,
  firstLink,
  newPage,
  setupE2E,
  shot,
  signInThroughUi,
} from "./fixtures.ts";

const e = setupE2E();

const SUBJECT = "Confirm the contact address of your Bookplate website";

browserDescribe("the contact address", () => {
  it("is pending until the link mailed to it is opened, then verified", async () => {
    const author = await createAuthorAccount(e.server);
    const address = `letters-${Date.now().toString(36)}@example.net`;
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto(`${e.server.url}/dashboard/contact`);
    await page.getByRole("heading", { name: "Contact Settings" }).waitFor();
    await page.getByText(`Messages from your contact form go to your account email, ${author.email}.`).waitFor();

    await page.getByLabel("Contact email").fill(address);
    await page.getByText("When you save, we will mail a link to this address.").waitFor();
    await page.getByRole("button", { name: "Save Contact Settings" }).click();
    await page.getByText("Contact settings saved successfully!").waitFor();
    await page.getByText(`Verification pending — we sent a link to ${address}`).waitFor();
    await page.getByText(`messages from your contact form go to your account email, ${author.email}`).waitFor();
    await shot(page, "contact-address-pending");

    // A new link replaces the first one.
    await e.server.smtp.waitFor(address, SUBJECT);
    await page.getByRole("button", { name: "Resend link" }).click();
    await page.getByText("Verification link sent").waitFor();
    const deadline = Date.now() + 10_000;
    const links = () => e.server.smtp.mails.filter((m) => m.to.includes(address) && m.subject === SUBJECT);
    while (links().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const mails = links();
    expect(mails).toHaveLength(2);

    const tab = await page.context().newPage();
    await tab.goto(firstLink(mails[0]?.text ?? ""));
    await tab.getByRole("button", { name: "Confirm this address" }).click();
    await tab.getByRole("heading", { name: "Link not valid" }).waitFor();

    await tab.goto(firstLink(mails[1]?.text ?? ""));
    await tab.getByRole("button", { name: "Confirm this address" }).click();
    await tab.getByRole("heading", { name: "Contact address verified" }).waitFor();
    expect(await tab.getByText(address).count()).toBe(1);

    await page.reload();
    await page.getByText("Verified", { exact: true }).waitFor();
    await page.getByText(`Messages from your contact form go to ${address}.`).waitFor();
    expect(await page.getByRole("button", { name: "Resend link" }).count()).toBe(0);
    await shot(page, "contact-address-verified");
  });
});
