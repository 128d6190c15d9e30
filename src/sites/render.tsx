// The bare pages for requests that match no site (the site itself is rendered by handler.tsx):
// 'Author not found' at a subdomain nobody has, 'Website not found' on a domain that points at us
// but no site has claimed, and 'Coming soon'.

import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

const css = `body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;font-family:Georgia,serif;color:#292524;background:#fafaf9}main{max-width:36rem;margin:0 auto;padding:4rem 1.5rem;text-align:center}.mark{width:3.5rem;height:3.5rem;margin:0 auto 1.5rem;border-radius:50%;background:#eef2ff;color:#4338ca;display:flex;align-items:center;justify-content:center;font-size:1.6rem}h1{font-size:2.25rem;margin:0 0 .75rem;color:#1c1917}p{color:#57534e;line-height:1.6;font-size:1.1rem;margin:0}`;

function Document(props: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <style>{css}</style>
      </head>
      <body>{props.children}</body>
    </html>
  );
}

function renderDocument(title: string, body: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(<Document title={title}>{body}</Document>)}`;
}

function NotFound(props: { title: string; text: string }) {
  return (
    <main>
      <div className="mark" aria-hidden="true">
        ?
      </div>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
    </main>
  );
}

/** A site whose author has not finished signing up (checkout): its name, nothing of its content. */
export function renderComingSoon(siteName: string): string {
  return renderDocument(
    `${siteName} — coming soon`,
    <main>
      <div className="mark" aria-hidden="true">
        ✦
      </div>
      <h1>Coming soon</h1>
      <p>{siteName} is being set up and will open soon. Please check back.</p>
    </main>,
  );
}

export function renderWebsiteNotFound(): string {
  return renderDocument(
    "Website not found",
    <NotFound title="Website not found" text="This author's website is not yet configured." />,
  );
}

export function renderAuthorNotFound(): string {
  return renderDocument(
    "Author not found",
    <NotFound
      title="Author not found"
      text="No author's website uses this address. Check the address and try again."
    />,
  );
}
