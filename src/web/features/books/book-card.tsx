import { clsx } from "clsx";
import { AlertTriangle, BookOpen, Eye, EyeOff, Pencil, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { formatDate } from "../../../shared/dates.ts";
import { CURRENCIES, type Currency } from "../../../shared/enums.ts";
import { formatMoney } from "../../../shared/plans.ts";
import { DragHandle, useSortableRow } from "../../components/sortable.tsx";
import { Button } from "../../components/ui/button.tsx";
import { focusRing } from "../../components/ui/focus-ring.ts";
import { MoveButton } from "../../components/ui/row-controls.tsx";
import type { Book } from "./books-api.ts";

function price(book: Book): string | null {
  if (book.primaryPriceMinor == null) return null;
  const currency: Currency = (CURRENCIES as readonly string[]).includes(book.primaryCurrency)
    ? book.primaryCurrency
    : "GBP";
  return formatMoney(book.primaryPriceMinor, currency);
}

export function BookCard({
  book,
  position,
  total,
  upTo,
  downTo,
  onMove,
  planLimit,
  onToggleVisibility,
  onDelete,
}: {
  book: Book;
  position: number;
  total: number;
  /** Where up and down go: past the neighbouring book on screen (hidden ones may lie between); null at an end. */
  upTo: number | null;
  downTo: number | null;
  onMove: (position: number) => void;
  /** How many books the plan shows, to say so on a book it keeps off the site. */
  planLimit: number | null;
  onToggleVisibility: () => void;
  onDelete: () => void;
}) {
  const { row, handle, isDragging } = useSortableRow(book.id);
  const [target, setTarget] = useState(String(position));
  useEffect(() => setTarget(String(position)), [position]);
  const goId = useId();
  const hidden = !book.visibilityEnabled;
  // Off the site because of the plan, not the author's own Hide.
  const keptOffByPlan = book.hiddenByPlan || book.overLimit;
  const cost = price(book);
  // "2 January 2027", never 01/02/2027 (read the other way round in the US); a date to come is a pre-order.
  const released = formatDate(book.releaseDate, "long");
  const upcoming = Boolean(book.releaseDate && book.releaseDate > new Date().toISOString().slice(0, 10));

  function go() {
    const n = Number.parseInt(target, 10);
    if (Number.isNaN(n)) return setTarget(String(position));
    const clamped = Math.min(Math.max(n, 1), total);
    setTarget(String(clamped));
    if (clamped !== position) onMove(clamped);
  }

  return (
    <li
      {...row}
      data-testid="book-card"
      data-book-id={book.id}
      aria-label={book.title}
      className={clsx(
        // Phones: the controls get their own row under the book; wider screens: a column at the right.
        "relative grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-3 rounded-xl border bg-white p-4 shadow-sm transition-shadow sm:grid-cols-[auto_minmax(0,1fr)_auto]",
        isDragging ? "z-10 border-brand-500 shadow-lg ring-2 ring-brand-500/30" : "border-slate-200 hover:shadow-md",
      )}
    >
      <DragHandle label={`Drag to reorder "${book.title}"`} {...handle} className="-ml-1" />

      <div className={clsx("flex min-w-0 flex-1 gap-4", hidden && "opacity-50")}>
        {book.coverImageUrl ? (
          <img
            src={book.coverImageUrl}
            alt={`Cover of ${book.title}`}
            className="h-28 w-20 shrink-0 rounded-md object-cover shadow-sm ring-1 ring-slate-200"
          />
        ) : (
          <div
            className="flex h-28 w-20 shrink-0 items-center justify-center rounded-md bg-gradient-to-br from-indigo-50 to-indigo-100 ring-1 ring-indigo-100"
            role="img"
            aria-label="No cover"
          >
            <BookOpen className="h-8 w-8 text-brand-500/60" aria-hidden="true" />
          </div>
        )}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate text-base font-semibold text-slate-900">{book.title}</h3>
            {keptOffByPlan ? (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
                Hidden by plan
              </span>
            ) : hidden ? (
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Hidden</span>
            ) : null}
            {book.isFeatured && (
              <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-brand-600">Featured</span>
            )}
          </div>
          {book.subtitle && <p className="truncate text-sm text-slate-600">{book.subtitle}</p>}
          <p className="mt-0.5 text-sm text-slate-500">by {book.author?.trim() || "Unknown Author"}</p>
          <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
            {book.seriesName && (
              <div>
                <dt className="sr-only">Series</dt>
                <dd>
                  {book.seriesName}
                  {book.orderInSeries != null && ` #${book.orderInSeries}`}
                </dd>
              </div>
            )}
            {released && (
              <div>
                <dt className="sr-only">Release date</dt>
                <dd>{upcoming ? `Out on ${released} (pre-order)` : `Released ${released}`}</dd>
              </div>
            )}
            {cost && (
              <div>
                <dt className="sr-only">Price</dt>
                <dd className="font-medium text-slate-700">{cost}</dd>
              </div>
            )}
          </dl>
        </div>
      </div>

      <div className="col-span-2 flex flex-wrap items-center justify-between gap-3 sm:col-span-1 sm:flex-col sm:flex-nowrap sm:items-end">
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">Position of "{book.title}"</legend>
          <MoveButton
            direction="up"
            label="Move up"
            disabled={upTo === null}
            onClick={() => upTo !== null && onMove(upTo)}
          />
          <MoveButton
            direction="down"
            label="Move down"
            disabled={downTo === null}
            onClick={() => downTo !== null && onMove(downTo)}
          />
          <form
            noValidate
            className="flex items-center gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              go();
            }}
          >
            <label htmlFor={goId} className="sr-only">
              Go to position (1 to {total})
            </label>
            <input
              id={goId}
              type="number"
              inputMode="numeric"
              min={1}
              max={total}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              className="h-8 w-14 rounded-md border border-slate-300 px-2 text-center text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
            />
            <span className="text-xs text-slate-500" aria-hidden="true">
              of {total}
            </span>
            <Button look="editor" type="submit" variant="secondary" size="sm">
              Go to
            </Button>
          </form>
        </fieldset>
        <div className="flex items-center gap-1">
          <Link
            to={`/edit-book/${book.id}`}
            className={clsx(
              "inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100",
              focusRing,
            )}
            aria-label={`Edit "${book.title}"`}
          >
            <Pencil className="h-4 w-4" aria-hidden="true" />
            Edit
          </Link>
          <Button
            look="editor"
            variant="ghost"
            size="sm"
            onClick={onToggleVisibility}
            aria-label={hidden ? `Show "${book.title}" on your site` : `Hide "${book.title}" from your site`}
          >
            {hidden ? (
              <Eye className="h-4 w-4" aria-hidden="true" />
            ) : (
              <EyeOff className="h-4 w-4" aria-hidden="true" />
            )}
            {hidden ? "Show on site" : "Hide"}
          </Button>
          <Button
            look="editor"
            variant="dangerGhost"
            size="sm"
            onClick={onDelete}
            aria-label={`Delete "${book.title}"`}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>
      {/* Outside the dimmed part, so it stays readable. */}
      {keptOffByPlan && (
        <p className="col-span-2 flex items-start gap-1.5 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 sm:col-span-3">
          <AlertTriangle className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
          <span>
            Not on your site: your plan shows {planLimit ?? "a limited number of"} books. Hide another book to show this
            one, or{" "}
            <Link to="/dashboard/plan" className={clsx("font-medium underline", focusRing)}>
              upgrade
            </Link>
            .
          </span>
        </p>
      )}
    </li>
  );
}
