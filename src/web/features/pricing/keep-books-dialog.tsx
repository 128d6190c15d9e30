// A smaller plan that would hide books: before anything changes, the author reads how many and
// ticks the books that stay on the site (ADR 054). The first ones in their order come ticked;
// no more than the new plan shows can be ticked.
import { useQuery } from "@tanstack/react-query";
import { BookOpen } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useState } from "react";
import type { Tier } from "../../../shared/enums.ts";
import { PLANS } from "../../../shared/plans.ts";
import type { Book } from "../../../shared/schemas/book.ts";
import { Button } from "../../components/ui/button.tsx";
import { client, errorMessage, readField } from "../../lib/api.ts";

export function KeepBooksDialog({
  ask,
  busy,
  onConfirm,
  onClose,
}: {
  /** The plan asked for and the server's words on what it would hide; null when closed. */
  ask: { tier: Tier; message: string } | null;
  busy: boolean;
  onConfirm: (tier: Tier, keepVisible: string[]) => void;
  onClose: () => void;
}) {
  const open = ask !== null;
  const plan = ask ? PLANS[ask.tier] : null;
  const limit = plan?.bookLimit ?? 0;
  // The books readers may see now: the ones to choose between.
  const books = useQuery({
    queryKey: ["books", "list"],
    queryFn: () => readField(client.books.$get(), "books"),
    enabled: open,
  });
  const shown = (books.data ?? []).filter((b: Book) => b.visibilityEnabled);
  const [chosen, setChosen] = useState<string[]>([]);
  const loaded = books.isSuccess;
  // Each time the question opens, start from the first books in the author's order (not again
  // on every refetch of the list, which would undo the author's ticks).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the dialog opens or the list arrives
  useEffect(() => {
    if (open && loaded) setChosen(shown.slice(0, limit).map((b) => b.id));
  }, [open, loaded, limit]);

  const full = chosen.length >= limit;
  const toggle = (id: string) =>
    setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : c.length < limit ? [...c, id] : c));

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">
            {plan ? `Switch to ${plan.name}?` : ""}
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-600">{ask?.message}</Dialog.Description>
          <fieldset className="mt-4 flex min-h-0 flex-col">
            <legend className="text-sm font-medium text-slate-900">
              Books that stay on your site{" "}
              <span className="font-normal text-slate-600" data-testid="keep-count">
                ({chosen.length} of {limit} chosen)
              </span>
            </legend>
            {books.isError ? (
              <p role="alert" className="mt-2 text-sm text-red-700">
                {errorMessage(books.error)}
              </p>
            ) : !loaded ? (
              <p className="mt-2 text-sm text-slate-500">Loading your books...</p>
            ) : (
              <ul className="mt-2 min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
                {shown.map((b: Book) => {
                  const on = chosen.includes(b.id);
                  return (
                    <li key={b.id}>
                      <label
                        className={`flex items-center gap-3 px-3 py-2 text-sm ${!on && full ? "text-slate-400" : "text-slate-800"}`}
                      >
                        <input
                          type="checkbox"
                          className="h-4 w-4 shrink-0 accent-brand-600"
                          checked={on}
                          disabled={busy || (!on && full)}
                          onChange={() => toggle(b.id)}
                        />
                        {b.coverImageUrl ? (
                          <img src={b.coverImageUrl} alt="" className="h-10 w-7 shrink-0 rounded-sm object-cover" />
                        ) : (
                          <BookOpen className="h-4 w-7 shrink-0 text-slate-400" aria-hidden="true" />
                        )}
                        <span className="min-w-0 truncate">{b.title}</span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
            <p className="mt-2 text-xs text-slate-600">
              {full ? "To choose another book, untick one first." : `You can tick ${limit - chosen.length} more.`} You
              can change which books are shown later on your Books page.
            </p>
          </fieldset>
          <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary" disabled={busy}>
                Keep my plan
              </Button>
            </Dialog.Close>
            <Button
              onClick={() => ask && onConfirm(ask.tier, chosen)}
              disabled={busy || !loaded || chosen.length === 0}
            >
              {busy ? "Switching..." : plan ? `Switch to ${plan.name}` : "Switch"}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
