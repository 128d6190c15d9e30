// 'Your Books': the author's catalogue in display order, with reordering (buttons, a 'Go to'
// position, drag and drop with mouse, touch or keyboard), hide/show and delete. How many books
// readers see against the plan, and the books a smaller plan keeps off the site, are said up
// front: the author swaps which are shown with each book's own toggle (ADR 054).
import { arrayMove } from "@dnd-kit/sortable";
import { useQueryClient } from "@tanstack/react-query";
import { clsx } from "clsx";
import { AlertTriangle, BookOpen, Library, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { PLANS } from "../../../shared/plans.ts";
import { SortableBooks } from "../../components/sortable.tsx";
import { focusRing } from "../../components/ui/focus-ring.ts";
import { useCapacity } from "../../lib/account-state.ts";
import { BookCard } from "./book-card.tsx";
import { type Book, bookKeys, booksApi, errorMessage, useBookMutation, useBooks } from "./books-api.ts";
import { DeleteBookDialog } from "./delete-book-dialog.tsx";

type Filter = "visible" | "all";

/** A link that looks like the editors' buttons (Series, Add Book); `look` is its colours. */
const linkButton = (look: string, extra?: string) =>
  clsx("inline-flex h-10 items-center gap-1.5 rounded-md px-4 text-sm font-medium shadow-sm", look, focusRing, extra);
const PRIMARY = "bg-brand-600 text-white hover:bg-brand-700";

export function BooksSection() {
  const { data: books, isPending, isError, error, refetch } = useBooks();
  const qc = useQueryClient();
  const capacity = useCapacity().data;
  const [chosenFilter, setFilter] = useState<Filter | null>(null);
  const [toDelete, setToDelete] = useState<Book | null>(null);

  const all = books ?? [];
  const hiddenCount = all.filter((b) => !b.visibilityEnabled).length;
  const keptOff = all.filter((b) => b.hiddenByPlan || b.overLimit).length;
  // Books the plan keeps off the site are shown until the author picks a filter: they are the
  // ones to choose between.
  const filter: Filter = chosenFilter ?? (keptOff > 0 ? "all" : "visible");
  const shown = useMemo(() => (filter === "all" ? all : all.filter((b) => b.visibilityEnabled)), [all, filter]);

  // Optimistic: the list moves at once; the server's order wins once it answers.
  function showOrder(next: Book[]) {
    qc.setQueryData<Book[]>(
      bookKeys.list,
      next.map((b, i) => ({ ...b, sortOrder: i })),
    );
  }

  const move = useBookMutation(({ id, position }: { id: string; position: number }) => booksApi.move(id, position));
  const order = useBookMutation((ids: string[]) => booksApi.order(ids));
  const visibility = useBookMutation(({ id, visible }: { id: string; visible: boolean }) =>
    booksApi.setVisibility(id, visible),
  );
  const remove = useBookMutation((id: string) => booksApi.remove(id));

  /** 1-based place among all the author's books, hidden ones included. */
  const positionOf = (book: Book | undefined) => (book ? all.findIndex((b) => b.id === book.id) + 1 : 0);

  function moveTo(book: Book, position: number) {
    const from = all.findIndex((b) => b.id === book.id);
    const to = Math.min(Math.max(Math.round(position), 1), all.length) - 1;
    if (from < 0 || from === to) return;
    showOrder(arrayMove(all, from, to));
    move.mutate(
      { id: book.id, position: to + 1 },
      {
        onSuccess: () => toast.success("Book order updated successfully"),
        onError: (e) => toast.error(errorMessage(e)),
      },
    );
  }

  function onDrop(id: string, overId: string) {
    const from = all.findIndex((b) => b.id === id);
    const to = all.findIndex((b) => b.id === overId);
    if (from < 0 || to < 0) return;
    const next = arrayMove(all, from, to);
    showOrder(next);
    order.mutate(
      next.map((b) => b.id),
      {
        onSuccess: () => toast.success("Book order updated successfully"),
        onError: (e) => toast.error(errorMessage(e)),
      },
    );
  }

  function toggleVisibility(book: Book) {
    const visible = !book.visibilityEnabled;
    qc.setQueryData<Book[]>(bookKeys.list, (prev) =>
      prev?.map((b) => (b.id === book.id ? { ...b, visibilityEnabled: visible } : b)),
    );
    visibility.mutate(
      { id: book.id, visible },
      {
        onSuccess: () => toast.success(visible ? "Book now visible to public" : "Book hidden from public"),
        onError: (e) => toast.error(errorMessage(e)),
      },
    );
  }

  function confirmDelete() {
    const book = toDelete;
    if (!book) return;
    setToDelete(null);
    remove.mutate(book.id, {
      onSuccess: () => toast.success("Book removed from your collection"),
      onError: (e) => toast.error(errorMessage(e)),
    });
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Your Books</h1>
          {hiddenCount > 0 && (
            <span
              className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-800"
              data-testid="hidden-count"
            >
              {hiddenCount} hidden
            </span>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <fieldset className="inline-flex rounded-lg bg-slate-100 p-1" aria-label="Show books">
            {(
              [
                ["visible", "Visible"],
                ["all", "All Books"],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                aria-pressed={filter === value}
                onClick={() => setFilter(value)}
                className={clsx(
                  "rounded-md px-3 py-1.5 text-sm font-medium transition-colors",
                  focusRing,
                  filter === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900",
                )}
              >
                {label}
              </button>
            ))}
          </fieldset>
          <Link
            to="/dashboard/series"
            className={linkButton("border border-slate-300 bg-white text-slate-700 hover:bg-slate-50")}
          >
            <Library className="h-4 w-4" aria-hidden="true" />
            Series
          </Link>
          <Link to="/add-book" className={linkButton(PRIMARY)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Book
          </Link>
        </div>
      </div>

      {capacity && all.length > 0 ? (
        <p className="-mt-3 text-sm text-slate-600" data-testid="books-shown">
          {all.length} {all.length === 1 ? "book" : "books"}, {capacity.shown} shown on your site (
          {PLANS[capacity.tier].name} plan shows {capacity.limit})
        </p>
      ) : null}
      {capacity && keptOff > 0 ? (
        <div
          role="note"
          className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
          data-testid="plan-hidden-note"
        >
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <p>
            {keptOff === 1 ? "1 book is" : `${keptOff} books are`} not on your site because your{" "}
            {PLANS[capacity.tier].name} plan shows {capacity.limit}. They are kept. To show a different book, hide one
            that is shown, then choose <strong>Show on site</strong> on the one you want, or{" "}
            <Link to="/dashboard/plan" className={clsx("font-medium underline", focusRing)}>
              change your plan
            </Link>
            .
          </p>
        </div>
      ) : null}

      {isPending ? (
        <ul className="space-y-3" aria-busy="true" aria-label="Loading books">
          {[0, 1, 2].map((i) => (
            <li key={i} className="h-32 animate-pulse rounded-xl border border-slate-200 bg-slate-50" />
          ))}
        </ul>
      ) : isError ? (
        <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-sm text-red-700">
          <p>{errorMessage(error)}</p>
          <button type="button" onClick={() => refetch()} className={clsx("mt-2 font-medium underline", focusRing)}>
            Try again
          </button>
        </div>
      ) : all.length === 0 ? (
        <div className="rounded-xl border-2 border-dashed border-slate-300 bg-white px-6 py-16 text-center">
          <BookOpen className="mx-auto h-12 w-12 text-slate-400" aria-hidden="true" />
          <h2 className="mt-4 text-lg font-semibold text-slate-900">No books added yet</h2>
          <p className="mt-1 text-sm text-slate-500">Add your books to show them on your author website.</p>
          <Link to="/add-book" className={linkButton(PRIMARY, "mt-6")}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Your First Book
          </Link>
        </div>
      ) : shown.length === 0 ? (
        <div className="rounded-xl border border-slate-200 bg-white px-6 py-10 text-center text-sm text-slate-500">
          All your books are hidden. Choose <strong>All Books</strong> to see them.
        </div>
      ) : (
        <SortableBooks ids={shown.map((b) => b.id)} onDrop={onDrop}>
          <ol className="space-y-3" aria-label="Your books in display order">
            {shown.map((book, i) => (
              <BookCard
                key={book.id}
                book={book}
                position={positionOf(book)}
                total={all.length}
                upTo={i > 0 ? positionOf(shown[i - 1]) : null}
                downTo={i < shown.length - 1 ? positionOf(shown[i + 1]) : null}
                onMove={(p) => moveTo(book, p)}
                planLimit={capacity?.limit ?? null}
                onToggleVisibility={() => toggleVisibility(book)}
                onDelete={() => setToDelete(book)}
              />
            ))}
          </ol>
        </SortableBooks>
      )}

      <DeleteBookDialog book={toDelete} onCancel={() => setToDelete(null)} onConfirm={confirmDelete} />
    </div>
  );
}
