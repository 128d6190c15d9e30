// On a book's edit page: the readers waiting to be told it is out (issue 17), and a test of the
// mail they will get. Shown once a book has a release date.
import { useMutation, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import { Button } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { client, errorMessage, read } from "../../lib/api.ts";

export function LaunchPanel({ bookId }: { bookId: string }) {
  const launch = useQuery({
    queryKey: ["books", "launch", bookId],
    queryFn: () => read(client.books[":id"]["release-alerts"].$get({ param: { id: bookId } })),
    staleTime: 0,
  });
  const test = useMutation({
    mutationFn: () => read(client.books[":id"]["release-alerts"].test.$post({ param: { id: bookId } })),
    onSuccess: ({ sentTo }) => toast.success(`Test sent to ${sentTo}`),
    onError: (err) => toast.error("The test mail was not sent", { description: errorMessage(err) }),
  });
  const a = launch.data;
  if (!a?.releaseDate || (!a.preorder && a.notified === 0 && a.confirmed === 0)) return null;
  const day = formatDate(a.releaseDate, "long");
  return (
    <Section
      title="Release alerts"
      description="Readers who asked on the book page to be told when it comes out. Each gets one email on release day."
    >
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-500">{a.preorder ? `To be told on ${day}` : "Waiting to be told"}</dt>
          <dd className="text-2xl font-semibold text-slate-900">{a.confirmed}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-500">Not confirmed yet</dt>
          <dd className="text-2xl font-semibold text-slate-900">{a.pending}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-500">Told it is out</dt>
          <dd className="text-2xl font-semibold text-slate-900">{a.notified}</dd>
        </div>
      </dl>
      <div>
        <Button look="editor" variant="secondary" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? "Sending…" : "Send Me a Test"}
        </Button>
        <p className="mt-2 text-sm text-slate-500">The release-day email, to your own address, marked as a test.</p>
      </div>
    </Section>
  );
}
