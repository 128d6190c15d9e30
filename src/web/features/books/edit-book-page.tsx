import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { bookPath } from "../../../shared/book-path.ts";
import { Button } from "../../components/ui/button.tsx";
import { useSubdomain } from "../../lib/account-state.ts";
import { BookForm } from "./book-form.tsx";
import { fromBook } from "./book-form-values.ts";
import { BookPageLayout } from "./book-page-layout.tsx";
import { ApiError, booksApi, errorMessage, useBook, useInvalidateBooks } from "./books-api.ts";
import { LaunchPanel } from "./launch-panel.tsx";

export function EditBookPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidateBooks();
  const book = useBook(id);
  const subdomain = useSubdomain();

  if (book.isPending) {
    return (
      <BookPageLayout title="Edit Book">
        <div className="space-y-4" aria-busy="true">
          <span className="sr-only" role="status">
            Loading book
          </span>
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-40 animate-pulse rounded-xl border border-slate-200 bg-white" />
          ))}
        </div>
      </BookPageLayout>
    );
  }
  if (book.isError) {
    const notFound = book.error instanceof ApiError && book.error.status === 404;
    return (
      <BookPageLayout title={notFound ? "Book Not Found" : "Edit Book"}>
        <div
          role="alert"
          className="rounded-xl border border-slate-200 bg-white p-8 text-center text-sm text-slate-600"
        >
          <p>{notFound ? "This book doesn't exist or isn't yours." : errorMessage(book.error)}</p>
          <Link to="/dashboard/books" className="mt-4 inline-block font-medium text-brand-600 underline">
            Back to your books
          </Link>
        </div>
      </BookPageLayout>
    );
  }

  const data = book.data;
  return (
    <BookPageLayout title="Edit Book" subtitle={data.title}>
      <BookForm
        key={data.id}
        defaultValues={fromBook(data)}
        currentCoverUrl={data.coverImageUrl}
        onSubmit={async (input, cover, intent) => {
          try {
            const saved = await booksApi.update(data.id, input);
            if (cover === "remove") await booksApi.removeCover(data.id);
            else if (cover) await booksApi.uploadCover(data.id, cover);
            await invalidate();
            toast.success("Book updated successfully!");
            if (intent === "view" && subdomain.data) {
              // The public book page is server-rendered, outside the SPA.
              window.location.assign(`/author/${encodeURIComponent(subdomain.data)}${bookPath(saved)}`);
            } else {
              navigate("/dashboard/books");
            }
          } catch (e) {
            toast.error("Failed to update book. Please try again.", {
              description: e instanceof ApiError && e.status < 500 ? e.message : undefined,
            });
          }
        }}
        actions={({ canSubmit, submitting, submit }) => (
          <>
            <Button look="editor" variant="secondary" onClick={() => navigate("/dashboard/books")}>
              Cancel
            </Button>
            <Button look="editor" variant="secondary" disabled={!canSubmit} onClick={() => submit("view")}>
              Update &amp; View
            </Button>
            <Button look="editor" type="submit" disabled={!canSubmit}>
              {submitting ? "Updating…" : "Update Book"}
            </Button>
          </>
        )}
      />
      <div className="mt-6">
        <LaunchPanel bookId={data.id} />
      </div>
    </BookPageLayout>
  );
}
