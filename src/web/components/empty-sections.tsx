// What of the author's site still reads empty to readers (ADR 052): the sections kept out of the
// menu until they have content, a missing genre, a privacy notice not yet reviewed. Each line says
// what readers see and links to where it is filled in. Reusable: a getting-started list can show it.
import { ArrowRight, CheckCircle2, CircleDashed, ListChecks, X } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { SiteStatus } from "../../shared/schemas/site-status.ts";
import { ProgressBar } from "./ui/progress-bar.tsx";

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

/** What the getting-started checklist knows besides the site's status. */
export type ChecklistFacts = {
  /** The author's bio as saved (HTML) and photo address. */
  profile: { bio: string; authorPhotoUrl: string | null };
  /** A custom domain is connected and verified. */
  domainConnected: boolean;
};

export type ChecklistItem = EmptyItem & { label: string; done: boolean };

const hasText = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .trim() !== "";

/**
 * The getting-started checklist (issue 30): first book, photo and bio, privacy text reviewed,
 * newsletter, own domain. Each is read from real data, never ticked by hand; an open item
 * reuses the empty-section line when there is one, so both say the same thing.
 */
export function checklistItems(status: SiteStatus, facts: ChecklistFacts): ChecklistItem[] {
  const empty = new Map(emptyItems(status).map((i) => [i.key, i]));
  const s = status.sections;
  const bio = hasText(facts.profile.bio);
  const photo = Boolean(facts.profile.authorPhotoUrl?.trim());
  const line = (key: string, fallback: EmptyItem): EmptyItem => empty.get(key) ?? fallback;
  return [
    {
      ...line("books", {
        key: "books",
        text: "Add a book readers can see and buy.",
        to: "/dashboard/books",
        action: "Add a book",
      }),
      label: "Your first book",
      done: s.books.hasContent,
    },
    {
      ...(bio
        ? {
            key: "about",
            text: "No photo yet: your About page shows your initials.",
            to: "/dashboard/bio",
            action: "Add your photo",
          }
        : line("about", {
            key: "about",
            text: "No bio yet: readers see your photo and name only.",
            to: "/dashboard/bio",
            action: "Write your bio",
          })),
      label: "Your photo and bio",
      done: bio && photo,
    },
    {
      ...line("privacy", { key: "privacy", text: "", to: "/dashboard/legal", action: "Review it" }),
      label: "Your privacy text reviewed",
      done: !status.privacyGenerated,
    },
    {
      ...line("newsletter", {
        key: "newsletter",
        text: "Newsletter is switched off in Site Settings.",
        to: "/dashboard/newsletter",
        action: "Set it up",
      }),
      label: "Your newsletter",
      done: s.newsletter.shown,
    },
    {
      key: "domain",
      text: "Your site has a free address; your own, like janeauthor.com, is yours to add.",
      to: "/dashboard/domain",
      action: "Connect a domain",
      label: "Your own domain",
      done: facts.domainConnected,
    },
  ];
}

function ItemLink({ item }: { item: EmptyItem }) {
  return (
    <Link
      to={item.to}
      className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {item.action} <ArrowRight aria-hidden="true" className="h-3.5 w-3.5" />
    </Link>
  );
}

/** A line of what readers don't see yet, with its way to fill it. */
function EmptyLine({ item }: { item: EmptyItem }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5 text-sm">
      <span className="flex min-w-0 items-start gap-2 text-slate-700">
        <CircleDashed aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" />
        <span>{item.text}</span>
      </span>
      <ItemLink item={item} />
    </li>
  );
}

/**
 * What readers don't see yet; given `checklist`, the same card becomes the getting-started list
 * with its progress until every item is done or the author hides it. The empty-section lines
 * the checklist does not cover (genre, blog) stay under it. A hidden list that is not done yet
 * leaves a button to show it again.
 */
/** The card both forms of the list stand in: the heading (with a line under it), a button beside it, the rows. */
function ListCard({
  title,
  under,
  action,
  children,
}: {
  title: ReactNode;
  under?: ReactNode;
  action: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <h2 id="empty-sections-title" className="text-base font-semibold text-slate-900">
      {title}
    </h2>
  );
  return (
    <section
      aria-labelledby="empty-sections-title"
      data-testid="empty-sections"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        {under ? (
          <div className="min-w-0">
            {heading}
            {under}
          </div>
        ) : (
          heading
        )}
        {action}
      </div>
      {children}
    </section>
  );
}

/** Hides or shows the getting-started list. */
function ListToggle({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {children}
    </button>
  );
}

export function EmptySections({
  status,
  title = "What readers don't see yet",
  checklist,
}: {
  status: SiteStatus;
  title?: string;
  checklist?: { facts: ChecklistFacts; hidden?: boolean; onDismiss: () => void; onShow?: () => void };
}) {
  const items = emptyItems(status);
  const steps = checklist ? checklistItems(status, checklist.facts) : [];
  const done = steps.filter((i) => i.done).length;
  const unfinished = checklist !== undefined && done < steps.length;
  if (checklist && unfinished && !checklist.hidden) {
    const covered = new Set(steps.map((i) => i.key));
    const rest = items.filter((i) => !covered.has(i.key));
    return (
      <ListCard
        title="Getting started"
        under={
          <p className="text-sm text-slate-600" data-testid="checklist-progress">
            {done} of {steps.length} done
          </p>
        }
        action={
          <ListToggle onClick={checklist.onDismiss}>
            <X aria-hidden="true" className="h-4 w-4" /> Hide this list
          </ListToggle>
        }
      >
        <ProgressBar
          label="Getting started"
          now={done}
          max={steps.length}
          percent={(done / steps.length) * 100}
          className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-100"
          fillClassName="h-full rounded-full bg-emerald-500"
        />
        <ul className="mt-3 divide-y divide-slate-100" data-testid="checklist">
          {steps.map((i) => (
            <li
              key={i.key}
              data-testid={`checklist-${i.key}`}
              data-done={i.done ? "true" : "false"}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5 text-sm"
            >
              <span className="flex min-w-0 items-start gap-2 text-slate-700">
                {i.done ? (
                  <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
                ) : (
                  <CircleDashed aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" />
                )}
                <span>
                  <span className={i.done ? "font-medium text-slate-500 line-through" : "font-medium text-slate-900"}>
                    {i.label}
                  </span>
                  {i.done ? <span className="sr-only"> (done)</span> : null}
                  {!i.done && i.text ? <span className="block">{i.text}</span> : null}
                </span>
              </span>
              {i.done ? null : <ItemLink item={i} />}
            </li>
          ))}
          {rest.map((i) => (
            <EmptyLine key={i.key} item={i} />
          ))}
        </ul>
      </ListCard>
    );
  }
  const show =
    unfinished && checklist?.onShow ? (
      <ListToggle onClick={checklist.onShow}>
        <ListChecks aria-hidden="true" className="h-4 w-4" /> Show the getting-started list
      </ListToggle>
    ) : null;
  if (items.length === 0) return show ? <div className="flex justify-end">{show}</div> : null;
  return (
    <ListCard title={title} action={show}>
      <ul className="mt-3 divide-y divide-slate-100">
        {items.map((i) => (
          <EmptyLine key={i.key} item={i} />
        ))}
      </ul>
    </ListCard>
  );
}
