// Deleting a newsletter, after a question that says what it does (ADR 069): a draft or scheduled
// one is gone; a sent one leaves the list, its figures and the archive, and readers keep their copy.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmRemoval } from "../../components/ui/confirm-dialog.tsx";
import { errorMessage } from "../../lib/api.ts";
import { deleteNewsletter, NEWSLETTERS_KEY, type Newsletter } from "./newsletters-api.ts";

export function DeleteNewsletter({ newsletter, onDeleted }: { newsletter: Newsletter; onDeleted: () => void }) {
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteNewsletter(newsletter.id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: NEWSLETTERS_KEY });
      toast.success("Newsletter deleted");
      onDeleted();
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  // One going out cannot be deleted (the server says so too).
  if (newsletter.status === "sending") return null;
  return (
    <ConfirmRemoval
      trigger={(ask) => (
        <Button variant="secondary" onClick={ask}>
          <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete
        </Button>
      )}
      removal={remove}
      title="Delete this newsletter?"
      confirmLabel="Delete"
      cancelLabel="Cancel"
      busyLabel="Deleting..."
    >
      <p className="break-words font-medium text-slate-900">{newsletter.subject}</p>
      {newsletter.status === "sent" ? (
        <p>
          It leaves your newsletters and its figures for good. Readers keep the copy they received, and the mails it
          sent still count towards today's sending limit.
        </p>
      ) : newsletter.status === "scheduled" ? (
        <p>It will not be sent, and what you wrote is deleted.</p>
      ) : (
        <p>What you wrote is deleted.</p>
      )}
    </ConfirmRemoval>
  );
}
