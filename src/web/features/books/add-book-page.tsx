import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "../../components/ui/button.tsx";
import { useCapacity } from "../../lib/account-state.ts";
import { BookForm } from "./book-form.tsx";
import { EMPTY_BOOK_FORM } from "./book-form-values.ts";
import { BookPageLayout } from "./book-page-layout.tsx";
import { ApiError, booksApi, errorMessage, isLimitError, useInvalidateBooks } from "./books-api.ts";
import { UpgradeDialog } from "./upgrade-dialog.tsx";

export function AddBookPage() {
  const navigate = useNavigate();
  const invalidate = useInvalidateBooks();
  const capacity = useCapacity();
  const [limitHit, setLimitHit] = useState(false);
  const atLimit = capacity.data?.canAdd === false || limitHit;
  const [dialogDismissed, setDialogDismissed] = useState(false);

  return (
    <BookPageLayout title="Add New Book" subtitle="Add a book to your collection. Fields marked * are required.">
      <BookForm
        defaultValues={EMPTY_BOOK_FORM}
        currentCoverUrl={null}
        disabled={atLimit || capacity.isPending}
        onSubmit={async (input, cover) => {
          try {
            const book = await booksApi.create(input);
            if (cover instanceof File) {
              try {
                await booksApi.uploadCover(book.id, cover);
              } catch (e) {
                toast.error(errorMessage(e));
              }
            }
            await invalidate();
            toast.success(`"${book.title ?? input.title}" has been added to your collection!`);
            navigate("/dashboard/books");
          } catch (e) {
            if (isLimitError(e)) {
              setLimitHit(true);
              setDialogDismissed(false);
              return;
            }
            toast.error("Failed to add book. Please try again.", {
              description: e instanceof ApiError && e.status < 500 ? e.message : undefined,
            });
          }
        }}
        actions={({ canSubmit, submitting }) => (
          <>
            <Button look="editor" variant="secondary" onClick={() => navigate("/dashboard/books")}>
              Cancel
            </Button>
            <Button look="editor" type="submit" disabled={!canSubmit}>
              {submitting ? "Adding…" : "Add Book"}
            </Button>
          </>
        )}
      />
      <UpgradeDialog
        open={atLimit && !dialogDismissed}
        limit={capacity.data?.limit}
        tierName={capacity.data?.tier ? capacity.data.tier[0]?.toUpperCase() + capacity.data.tier.slice(1) : undefined}
        onClose={() => {
          setDialogDismissed(true);
          navigate("/dashboard");
        }}
      />
    </BookPageLayout>
  );
}
