import { Sparkles } from "lucide-react";
import { Dialog } from "radix-ui";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button.tsx";

/** Shown when the plan's book limit is reached. Closing it without upgrading leaves the form. */
export function UpgradeDialog({
  open,
  limit,
  tierName,
  onClose,
}: {
  open: boolean;
  limit?: number | undefined;
  tierName?: string | undefined;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 text-center shadow-xl focus:outline-none">
          <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-indigo-50">
            <Sparkles className="h-6 w-6 text-brand-500" aria-hidden="true" />
          </div>
          <Dialog.Title className="mt-4 text-lg font-semibold text-slate-900">Upgrade Required</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-600">
            You've reached the book limit of your {tierName ? `${tierName} ` : ""}plan
            {limit ? ` (${limit} books)` : ""}. Upgrade your plan to add more books to your collection.
          </Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
            <Dialog.Close asChild>
              <Button look="editor" variant="secondary">
                Maybe Later
              </Button>
            </Dialog.Close>
            <Button look="editor" onClick={() => navigate("/dashboard/plan")}>
              Upgrade Now
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
