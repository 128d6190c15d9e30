// What of the author's site still reads empty to readers (ADR 052): the sections kept out of the
// menu until they have content, a missing genre, a privacy notice not yet reviewed. Each line says
// what readers see and links to where it is filled in. Reusable: a getting-started list can show it.
import { ArrowRight, CircleDashed } from "lucide-react";
import { Link } from "react-router";
import type { SiteStatus } from "../../shared/schemas/site-status.ts";

export type EmptyItem = { key: string; text: string; to: string; action: string };

/** The lines for a site's status, in the order an author would fill them in. */
export function emptyItems(status: SiteStatus): EmptyItem[] {
  const s = status.sections;
  const items: EmptyItem[] = [];
  const hidden = (x: { enabled: boolean; shown: boolean }) => x.enabled && !x.shown;
  if (hidden(s.books))
    items.push({
      key: "books",
      text: "No books yet: Books is not in your site's menu.",
      to: "/dashboard/books",
      action: "Add a book",
    });
  if (hidden(s.about))
    items.push({
      key: "about",
      text: "No bio yet: your About page is hidden from readers.",
      to: "/dashboard/bio",
      action: "Write your bio",
    });
  if (status.genreMissing)
    items.push({ key: "genre", text: "No genre: readers see none.", to: "/dashboard/bio", action: "Add your genre" });
  if (hidden(s.blog))
    items.push({
      key: "blog",
      text: "No posts yet: Blog is not in your site's menu.",
      to: "/dashboard/blog",
      action: "Write a post",
    });
  if (hidden(s.newsletter))
    items.push({
      key: "newsletter",
      text: "Newsletter is not set up: it is not in your site's menu.",
      to: "/dashboard/newsletter",
      action: "Set it up",
    });
  if (status.privacyGenerated)
    items.push({
      key: "privacy",
      text: "Your privacy page shows a notice written for you: check it says what you want.",
      to: "/dashboard/legal",
      action: "Review it",
    });
  return items;
}

export function EmptySections({
  status,
  title = "What readers don't see yet",
}: {
  status: SiteStatus;
  title?: string;
}) {
  const items = emptyItems(status);
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="empty-sections-title"
      data-testid="empty-sections"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="empty-sections-title" className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <ul className="mt-3 divide-y divide-slate-100">
        {items.map((i) => (
          <li key={i.key} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5 text-sm">
            <span className="flex min-w-0 items-start gap-2 text-slate-700">
              <CircleDashed aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" />
              <span>{i.text}</span>
            </span>
            <Link
              to={i.to}
              className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              {i.action} <ArrowRight aria-hidden="true" className="h-3.5 w-3.5" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
