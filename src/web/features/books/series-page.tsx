// 'Series': the author's series, each with its name, description and books in reading order.
// Drag a book (or use its arrows) to change the order; renaming moves every book of the series.
// A book joins a series through the series name in its editor. Every change shows on the
// public /series/{slug} page at once (the server drops the site's cached pages).
import { arrayMove } from "@dnd-kit/sortable";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { clsx } from "clsx";
import { ArrowLeft, ExternalLink, EyeOff, Library, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { SERIES_LIMITS, type SeriesCreateInput, seriesCreateSchema } from "../../../shared/schemas/series.ts";
import { DragHandle, SortableBooks, useSortableRow } from "../../components/sortable.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { ConfirmRemoval } from "../../components/ui/confirm-dialog.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Input, Textarea } from "../../components/ui/input.tsx";
import { LoadingBox } from "../../components/ui/loading-box.tsx";
import { MoveButton } from "../../components/ui/row-controls.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { useSubdomain } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";
import { setServerFieldError, useZodForm } from "../../lib/use-zod-form.ts";
import { bookKeys } from "./books-api.ts";
import {
  createSeries,
  deleteSeries,
  orderSeries,
  SERIES_KEY,
  type Series,
  updateSeries,
  useSeries,
} from "./series-api.ts";

export function SeriesPage() {
  const series = useSeries();
  const subdomain = useSubdomain().data ?? null;
  return (
    <div className="space-y-6">
      <div>
        <Link
          to="/dashboard/books"
          className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Your Books
        </Link>
        <h1 className="mt-2 text-2xl font-bold tracking-tight text-slate-900">Series</h1>
        <p className="mt-1 text-sm text-slate-600">
          Each series gets its own page on your site, listing its books in reading order, and every book in it says
          which number it is and links to the next. A book joins a series through the series name in its editor.
        </p>
      </div>
      <NewSeriesForm />
      {series.isPending ? (
        <LoadingBox className="h-48" />
      ) : series.isError ? (
        <p className="text-sm text-red-700">Could not load your series. {errorMessage(series.error)}</p>
      ) : series.data.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <Library className="mx-auto h-10 w-10 text-slate-400" aria-hidden="true" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">No series yet</h2>
          <p className="mt-1 text-sm text-slate-600">Start one above, or give a book a series name in its editor.</p>
        </div>
      ) : (
        <ul className="space-y-4" aria-label="Your series">
          {series.data.map((s) => (
            <li key={s.id}>
              <SeriesCard series={s} subdomain={subdomain} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function NewSeriesForm() {
  const qc = useQueryClient();
  const form = useZodForm(seriesCreateSchema, { name: "", description: "" });
  const { register, handleSubmit, formState, reset } = form;
  const create = useMutation({
    mutationFn: (body: SeriesCreateInput) => createSeries(body),
    onSuccess: (made) => {
      qc.setQueryData<Series[]>(SERIES_KEY, (old) =>
        [...(old ?? []), made].sort((a, b) => a.name.localeCompare(b.name)),
      );
      reset({ name: "", description: "" });
      toast.success(`Series “${made.name}” started`);
    },
    onError: (err) => {
      if (!setServerFieldError(form, err))
        toast.error("Could not start the series", { description: errorMessage(err) });
    },
  });
  return (
    <Card>
      <CardContent>
        <form
          noValidate
          onSubmit={handleSubmit((data) => create.mutate(data))}
          className="flex flex-col gap-3 sm:flex-row sm:items-start"
          aria-label="Start a series"
        >
          <div className="flex-1">
            <Field alert label="New series" error={formState.errors.name?.message}>
              <Input
                maxLength={SERIES_LIMITS.name}
                placeholder="e.g. The Harbour Lights Mysteries"
                {...register("name")}
              />
            </Field>
          </div>
          <Button type="submit" className="sm:mt-7" disabled={create.isPending}>
            {create.isPending ? "Starting..." : "Start Series"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function SeriesCard({ series, subdomain }: { series: Series; subdomain: string | null }) {
  const qc = useQueryClient();
  const form = useZodForm(seriesCreateSchema, { name: series.name, description: series.description ?? "" });
  const { register, handleSubmit, formState, reset } = form;
  const replace = (saved: Series) =>
    qc.setQueryData<Series[]>(SERIES_KEY, (old) => old?.map((s) => (s.id === saved.id ? saved : s)));

  const save = useMutation({
    mutationFn: (body: SeriesCreateInput) => updateSeries(series.id, body),
    onSuccess: (saved) => {
      replace(saved);
      reset({ name: saved.name, description: saved.description ?? "" });
      // A rename changes the books' series name: the book list shows it.
      void qc.invalidateQueries({ queryKey: bookKeys.all });
      toast.success("Series saved");
    },
    onError: (err) => {
      if (!setServerFieldError(form, err)) toast.error("Could not save the series", { description: errorMessage(err) });
    },
  });
  const order = useMutation({
    mutationFn: (ids: string[]) => orderSeries(series.id, ids),
    onSuccess: (saved) => {
      replace(saved);
      toast.success("Reading order saved");
    },
    onError: (err) => {
      toast.error("Could not save the reading order", { description: errorMessage(err) });
      void qc.invalidateQueries({ queryKey: SERIES_KEY });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSeries(series.id),
    onSuccess: () => {
      qc.setQueryData<Series[]>(SERIES_KEY, (old) => old?.filter((s) => s.id !== series.id));
      void qc.invalidateQueries({ queryKey: bookKeys.all });
      toast.success(`Series “${series.name}” removed`);
    },
    onError: (err) => toast.error("Could not remove the series", { description: errorMessage(err) }),
  });

  /** Shows the new order at once, then saves it. */
  function move(from: number, to: number) {
    if (to < 0 || to >= series.books.length || from === to) return;
    const next = arrayMove(series.books, from, to);
    replace({ ...series, books: next.map((b, i) => ({ ...b, orderInSeries: i + 1 })) });
    order.mutate(next.map((b) => b.id));
  }
  const indexOf = (id: string) => series.books.findIndex((b) => b.id === id);

  const headingId = `series-${series.id}`;
  return (
    <Card>
      <CardContent className="space-y-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {series.name}
          </h2>
          <div className="flex items-center gap-2">
            {subdomain && series.books.length > 0 && (
              <a
                href={`/author/${subdomain}/series/${series.slug}`}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
              >
                View page <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                <span className="sr-only">of {series.name} (opens in a new tab)</span>
              </a>
            )}
            <ConfirmRemoval
              trigger={(ask) => (
                <Button variant="dangerGhost" size="sm" onClick={ask}>
                  <Trash2 className="h-4 w-4" aria-hidden="true" /> Remove
                  <span className="sr-only"> {series.name}</span>
                </Button>
              )}
              removal={remove}
              title={`Remove “${series.name}”?`}
              confirmLabel="Remove Series"
              busyLabel="Removing..."
            >
              Its {series.books.length === 1 ? "book stays" : `${series.books.length} books stay`} on your site, in no
              series, and its page goes.
            </ConfirmRemoval>
          </div>
        </div>

        <section aria-label={`Reading order of ${series.name}`}>
          {series.books.length === 0 ? (
            <p className="text-sm text-slate-600">
              No books yet. Open a book and type <strong>{series.name}</strong> as its series name.
            </p>
          ) : (
            <SortableBooks
              ids={series.books.map((b) => b.id)}
              onDrop={(id, overId) => move(indexOf(id), indexOf(overId))}
            >
              <ol className="space-y-2">
                {series.books.map((b, i) => (
                  <SeriesBook key={b.id} book={b} index={i} count={series.books.length} onMove={(to) => move(i, to)} />
                ))}
              </ol>
            </SortableBooks>
          )}
        </section>

        <form
          noValidate
          onSubmit={handleSubmit((data) => save.mutate(data))}
          className="space-y-4 border-t border-slate-100 pt-4"
          aria-label={`Edit ${series.name}`}
        >
          <Field
            alert
            label="Series name"
            hint="Renaming moves every book of the series."
            error={formState.errors.name?.message}
          >
            <Input maxLength={SERIES_LIMITS.name} {...register("name")} />
          </Field>
          <Field
            alert
            label="Description"
            hint="Shown at the top of the series page."
            error={formState.errors.description?.message}
          >
            <Textarea rows={3} maxLength={SERIES_LIMITS.description} {...register("description")} />
          </Field>
          <div className="flex justify-end">
            <SaveButton busy={save.isPending} disabled={!formState.isDirty}>
              Save Series
            </SaveButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function SeriesBook(props: {
  book: Series["books"][number];
  index: number;
  count: number;
  onMove: (to: number) => void;
}) {
  const { book, index: i, count } = props;
  const { row, handle, isDragging } = useSortableRow(book.id);
  return (
    <li
      {...row}
      aria-label={book.title}
      data-testid="series-book"
      className={clsx(
        "flex items-center gap-3 rounded-lg border bg-white px-3 py-2",
        isDragging ? "z-10 border-brand-500 shadow-lg ring-2 ring-brand-500/30" : "border-slate-200",
      )}
    >
      <DragHandle label={`Drag to reorder "${book.title}"`} {...handle} />
      <span className="w-14 shrink-0 text-sm font-medium text-slate-500">Book {i + 1}</span>
      <span className="min-w-0 flex-1 break-words font-medium text-slate-900">{book.title}</span>
      {!book.visibilityEnabled && (
        <span className="inline-flex items-center gap-1 text-xs text-slate-500">
          <EyeOff className="h-3.5 w-3.5" aria-hidden="true" /> Hidden
        </span>
      )}
      <div className="flex items-center">
        <MoveButton
          direction="up"
          label={`Move "${book.title}" earlier`}
          disabled={i === 0}
          onClick={() => props.onMove(i - 1)}
        />
        <MoveButton
          direction="down"
          label={`Move "${book.title}" later`}
          disabled={i === count - 1}
          onClick={() => props.onMove(i + 1)}
        />
      </div>
    </li>
  );
}
