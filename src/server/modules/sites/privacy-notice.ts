// The privacy notice a site shows until its author writes their own (ADR 052): plain English, in
// the author's name, listing only what this site collects as it is set up today. The dashboard's
// legal settings start from the same text, so what the author edits is what readers saw.

export type PrivacyFacts = {
  authorName: string;
  siteName: string;
  /** The site's address as readers type it (no scheme). */
  siteAddress: string;
  /** How readers sign up: the site's own form, the author's email provider's form, or not at all. */
  newsletter: "own" | "provider" | null;
  /** The Contact page has its message form. */
  contactForm: boolean;
  /** Books are shown: store links are counted and readers may ask for a release alert. */
  books: boolean;
};

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

/**
 * The notice as HTML made only of what the dashboard's rich-text editor keeps (paragraphs, bold,
 * lists), so the text the author edits is the text readers saw: section titles are bold lines.
 */
export function privacyNoticeHtml(f: PrivacyFacts): string {
  const author = esc(f.authorName.trim() || f.siteName);
  const site = esc(f.siteName);
  const address = esc(f.siteAddress);
  const parts: string[] = [];
  const h = (t: string) => parts.push(`<p><strong>${t}</strong></p>`);
  const p = (t: string) => parts.push(`<p>${t}</p>`);

  p(
    `This notice explains what ${site} (${address}) collects about you and why. The site belongs to ${author}, who decides what happens to that information. It is hosted by Bookplate, which stores and processes it on ${author}'s behalf and for no purpose of its own.`,
  );

  h("What this site collects");
  const items: string[] = [];
  if (f.newsletter === "own") {
    items.push(
      `<strong>Newsletter sign-ups.</strong> If you sign up, your email address is kept so that ${author} can send you news, with the date and the page of this site you signed up on. You first get an email asking you to confirm; nothing else is sent until you do. Every newsletter has a link to unsubscribe, and you can ask ${author} to remove your address at any time.`,
    );
  }
  if (f.newsletter === "provider") {
    items.push(
      `<strong>Newsletter sign-ups.</strong> The sign-up form on the Newsletter page is provided by ${author}'s email provider. What you enter there goes to that provider, under its own privacy terms, not to this site.`,
    );
  }
  if (f.contactForm) {
    items.push(
      `<strong>Contact messages.</strong> If you write through the contact form, your name, email address and message are kept and sent to ${author} so they can read it and reply.`,
    );
  }
  if (f.books) {
    items.push(
      `<strong>Release alerts.</strong> If you ask to be told when a book comes out, your email address is kept for that one email, after you confirm it.`,
    );
    items.push(
      `<strong>Store links.</strong> When you follow a link to a bookshop, the site counts the click for that shop. Like the visit counts below, this uses no cookie and keeps no address.`,
    );
  }
  items.push(
    `<strong>Visit counts.</strong> The site counts visits without cookies. To count each reader once a day, it uses a hash of your internet address and browser mixed with a random value that changes every day and is then thrown away; your internet address itself is never stored, and the counts cannot be traced back to you.`,
  );
  parts.push(`<ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul>`);

  h("Cookies");
  p(
    "The site sets no cookies for statistics or advertising. If you answer the cookie banner, one cookie remembers your answer so the banner does not ask again.",
  );

  h("Who sees it");
  p(
    `${author}, and Bookplate as the host. It is not sold or shared with anyone else.${f.newsletter === "provider" ? " Newsletter sign-ups are handled by the email provider, as above." : ""}`,
  );

  h("Your rights and how to reach the author");
  const reach = f.contactForm
    ? `through the contact form on this site (${address}/contact)`
    : f.newsletter === "own"
      ? "by replying to any email you have had from this site"
      : "through the links on this site";
  p(
    `You can ask ${author} what is held about you, and to correct or delete it, ${reach}. You can also complain to your data protection authority.`,
  );
  return parts.join("");
}
