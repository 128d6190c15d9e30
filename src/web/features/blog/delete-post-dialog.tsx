import { AlertDialog } from "radix-ui";
import { POST_MESSAGES } from "../../../shared/schemas/post.ts";
import { Button } from "../../components/ui/button.tsx";
import type { Post } from "./blog-api.ts";

export function DeletePostDialog({
  post,
  busy,
  onCancel,
  onConfirm,
}: {
  post: Post | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root open={post !== null} onOpenChange={(open) => !open && !busy && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">Delete post</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600">
            {POST_MESSAGES.confirmDelete}
          </AlertDialog.Description>
          {post ? (
            <p className="mt-2 line-clamp-2 break-words text-sm font-medium text-slate-900">“{post.title}”</p>
          ) : null}
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={busy}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: the dialog stays open (and busy) until the delete lands. */}
            <Button variant="danger" disabled={busy} onClick={onConfirm}>
              {busy ? "Deleting..." : "Delete"}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
