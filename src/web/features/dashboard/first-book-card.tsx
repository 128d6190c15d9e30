// 'Add your first book' on the overview (issue 30): title, author, cover and one store link, saved
// through the books API without leaving the page, then a link to the book's page on the site. The
// full form (formats, prices, reviews) stays on the Books screen; this is the shortest way to a
// book readers can buy.
import { useQueryClient } from "@tanstack/react-query";
import { BookPlus, ExternalLink } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { bookPath } from "../../../shared/book-path.ts";
import type { SiteVisibility } from "../../../shared/schemas/site-status.ts";
import { siteLiveUrl } from "../../../shared/site-address.ts";
import { storefrontLabel, storefrontOfUrl } from "../../../shared/storefronts.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { CAPACITY_KEY, type OnboardingState, SITE_STATUS_KEY } from "../../lib/account-state.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { createFirstBook } from "./dashboard-api.ts";

const HTTP_URL = /^https?:\/\/\S+$/i;

/** Where "View it on your site" goes: the public page once readers can see it, else the preview. */
export function firstBookHref(
  book: { slug: string },
  website: NonNullable<OnboardingState["website"]>,
  sitesDomain: string,
  visibility: SiteVisibility | undefined,
): string {
  const live = visibility === "live" ? siteLiveUrl(website, { appOrigin: window.location.origin, sitesDomain }) : null;
  if (live) return `${live.replace(/\/$/, "")}${bookPath(book)}`;
  return `/author/${website.subdomain}${bookPath(book)}`;
}

export function FirstBookCard({
  authorName,
  website,
  sitesDomain,
  visibility,
}: {
  authorName: string;
  website: NonNullable<OnboardingState["website"]>;
  sitesDomain: string;
  visibility: SiteVisibility | undefined;
}) {
  const qc = useQueryClient();
  const [title, setTitle] = useState("");
  const [author, setAuthor] = useState<string | null>(null);
  const [storeUrl, setStoreUrl] = useState("");
  const [cover, setCover] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ title?: string; author?: string; storeUrl?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<{ title: string; slug: string; coverFailed: string | null } | null>(null);
  const authorValue = author ?? authorName;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: typeof errors = {};
    if (!title.trim()) found.title = "Title is required";
    if (!authorValue.trim()) found.author = "Author is required";
    const url = storeUrl.trim();
    if (url && !HTTP_URL.test(url)) found.storeUrl = "Store link must start with http:// or https://";
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const store = storefrontOfUrl(url);
      const storeName = store ? storefrontLabel(store) : hostName(url);
      const { book, coverError } = await createFirstBook({
        title: title.trim(),
        author: authorValue.trim(),
        storeUrl: url,
        storeName,
        cover,
      });
      setAdded({ title: book.title, slug: book.slug, coverFailed: coverError ? errorMessage(coverError) : null });
      await Promise.all([
        qc.invalidateQueries({ queryKey: ["books"] }),
        qc.invalidateQueries({ queryKey: CAPACITY_KEY }),
        qc.invalidateQueries({ queryKey: SITE_STATUS_KEY }),
      ]);
    } catch (err) {
      const field = err instanceof ApiError ? err.field : undefined;
      const message = errorMessage(err);
      if (field === "title" || field === "author") setErrors({ [field]: message });
      else if (field?.startsWith("retailerLinks")) setErrors({ storeUrl: message });
      else setErrors({ form: message });
    } finally {
      setBusy(false);
    }
  }

  if (added) {
    return (
      <Card data-testid="first-book">
        <CardContent className="space-y-3">
          <h2 className="text-lg font-semibold text-slate-900">Your first book is on your site</h2>
          <p className="text-sm text-slate-700" role="status">
            "{added.title}" has been added.{" "}
            {visibility === "live" ? "Readers can see it now." : "Readers see it once your site opens."}
          </p>
          {added.coverFailed ? (
            <p role="alert" className="text-sm text-red-700">
              The cover was not saved: {added.coverFailed} Add it from Books.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button asChild size="sm">
              <a href={firstBookHref(added, website, sitesDomain, visibility)}>
                View it on your site <ExternalLink aria-hidden="true" className="h-4 w-4" />
              </a>
            </Button>
            <Button asChild size="sm" variant="secondary">
              <Link to="/dashboard/books">Formats, prices and more</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card data-testid="first-book">
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="first-book-title">
          <div className="flex items-center gap-2">
            <BookPlus aria-hidden="true" className="h-5 w-5 text-brand-700" />
            <h2 id="first-book-title" className="text-lg font-semibold text-slate-900">
              Add your first book
            </h2>
          </div>
          <p className="text-sm text-slate-600">
            The title, its cover and where to buy it are enough for a page readers can buy from. The rest can wait.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            {/* The two required texts, alike but for their names. */}
            {(
              [
                ["first-book-name", "Title *", title, setTitle, errors.title],
                ["first-book-author", "Author *", authorValue, setAuthor, errors.author],
              ] as const
            ).map(([id, label, value, set, error]) => (
              <Field
                key={id}
                id={id}
                label={label}
                value={value}
                maxLength={200}
                onChange={(e) => set(e.target.value)}
                error={error}
              />
            ))}
            <Field
              id="first-book-store"
              label="Store link"
              type="url"
              inputMode="url"
              placeholder="https://www.amazon.com/dp/..."
              value={storeUrl}
              maxLength={2000}
              onChange={(e) => setStoreUrl(e.target.value)}
              error={errors.storeUrl}
              hint="Your book's page on Amazon or any store: readers' Buy button goes there."
            />
            <Field
              id="first-book-cover"
              label="Cover"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              onChange={(e) => setCover(e.target.files?.[0] ?? null)}
              hint="JPEG, PNG or WebP."
              className="min-w-0 file:mr-3 file:border-0 file:bg-transparent file:text-sm file:font-medium"
            />
          </div>
          {errors.form ? (
            <p role="alert" className="text-sm text-red-700">
              {errors.form}
            </p>
          ) : null}
          <Button type="submit" disabled={busy}>
            {busy ? "Adding…" : "Add book"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function hostName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "Store";
  }
}
