import { Dialog } from "radix-ui";
import { type ReactNode, useState } from "react";
import { Button } from "./button.tsx";

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busyLabel: string;
  busy: boolean;
  tone?: "primary" | "danger";
  onConfirm: () => void;
  onClose: () => void;
};

/** A yes/no question about a change with consequences, spelled out. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = "Not now",
  busyLabel,
  busy,
  tone = "primary",
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(30rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-600">{children}</div>
          </Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary" disabled={busy}>
                {cancelLabel}
              </Button>
            </Dialog.Close>
            <Button variant={tone} onClick={onConfirm} disabled={busy}>
              {busy ? busyLabel : confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A mutation taking no input, as `useMutation` returns it. */
type Removal = { isPending: boolean; mutate: (input: undefined, options: { onSuccess: () => void }) => void };

/**
 * Something removed only after a question that says what goes: `trigger` draws the button and
 * opens the question with `ask`; confirming runs `removal`, busy while it runs. The question
 * closes when the removal succeeded and stays open after a failure (the mutation says why).
 */
export function ConfirmRemoval({
  trigger,
  removal,
  ...question
}: Pick<ConfirmDialogProps, "title" | "children" | "confirmLabel" | "cancelLabel" | "busyLabel"> & {
  trigger: (ask: () => void) => ReactNode;
  removal: Removal;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {trigger(() => setOpen(true))}
      <ConfirmDialog
        {...question}
        open={open}
        busy={removal.isPending}
        tone="danger"
        onConfirm={() => removal.mutate(undefined, { onSuccess: () => setOpen(false) })}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
