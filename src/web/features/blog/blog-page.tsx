// 'Blog': the author's posts, newest first, with a create/edit form on the same screen. Every
// change shows on the public /blog at once (the server drops the site's cached pages).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Newspaper, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import type { PostCategory } from "../../../shared/enums.ts";
import { htmlToText } from "../../../shared/html-text.ts";
import { CATEGORY_LABELS, POST_MESSAGES } from "../../../shared/schemas/post.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { LoadFailed } from "../../components/ui/load-failed.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { useSubdomain } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";
import { deletePost, POSTS_KEY, type Post, usePosts } from "./blog-api.ts";
import { BlogPageSettings } from "./blog-page-form.tsx";
import { DeletePostDialog } from "./delete-post-dialog.tsx";
import { PostForm } from "./post-form.tsx";

type Mode = { kind: "list" } | { kind: "new" } | { kind: "edit"; post: Post };

const BADGE: Record<PostCategory, string> = {
  news: "bg-sky-50 text-sky-700 ring-sky-200",
  books: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  events: "bg-amber-50 text-amber-800 ring-amber-200",
  thoughts: "bg-violet-50 text-violet-700 ring-violet-200",
};

/** The first words of a post, for the list. */
function excerpt(html: string, max = 160): string {
  const text = htmlToText(html);
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

export function BlogPage() {
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const qc = useQueryClient();
  const show = (next: Mode) => {
    setMode(next);
    window.scrollTo({ top: 0 });
  };

  if (mode.kind !== "list") {
    return (
      <PostForm
        key={mode.kind === "edit" ? mode.post.id : "new"}
        post={mode.kind === "edit" ? mode.post : null}
        onCancel={() => show({ kind: "list" })}
        onSaved={() => {
          void qc.invalidateQueries({ queryKey: POSTS_KEY });
          show({ kind: "list" });
        }}
      />
    );
  }
  return <PostList onNew={() => show({ kind: "new" })} onEdit={(post) => show({ kind: "edit", post })} />;
}

function PostList({ onNew, onEdit }: { onNew: () => void; onEdit: (post: Post) => void }) {
  const qc = useQueryClient();
  const posts = usePosts();
  const subdomain = useSubdomain().data ?? null;
  const [deleting, setDeleting] = useState<Post | null>(null);

  const remove = useMutation({
    mutationFn: (post: Post) => deletePost(post.id),
    onSuccess: (_, post) => {
      qc.setQueryData<Post[]>(POSTS_KEY, (old) => old?.filter((p) => p.id !== post.id));
      void qc.invalidateQueries({ queryKey: POSTS_KEY });
      toast.success(POST_MESSAGES.deleted);
      setDeleting(null);
    },
    onError: (err) => {
      toast.error(POST_MESSAGES.deleteFailed, { description: errorMessage(err) });
      setDeleting(null);
    },
  });

  return (
    <div className="space-y-6">
      <PageHeading title="Blog" description="News, events and thoughts for your readers.">
        <div className="flex flex-wrap gap-2">
          {subdomain ? (
            <Button asChild variant="secondary">
              <a href={`/author/${encodeURIComponent(subdomain)}/blog`} target="_blank" rel="noopener">
                <ExternalLink aria-hidden="true" className="h-4 w-4" /> View on site
              </a>
            </Button>
          ) : null}
          <Button onClick={onNew}>
            <Plus aria-hidden="true" className="h-4 w-4" /> New Post
          </Button>
        </div>
      </PageHeading>

      {posts.isPending ? (
        <div aria-busy="true" className="space-y-3">
          <span className="sr-only">Loading...</span>
          <div className="h-24 animate-pulse rounded-2xl bg-slate-100" />
          <div className="h-24 animate-pulse rounded-2xl bg-slate-100" />
        </div>
      ) : posts.isError ? (
        <LoadFailed retry={() => posts.refetch()}>
          <p>{POST_MESSAGES.loadFailed}</p>
        </LoadFailed>
      ) : posts.data.length === 0 ? (
        <EmptyState
          icon={Newspaper}
          title="No posts yet"
          action={
            <Button className="mt-6" onClick={onNew}>
              <Plus aria-hidden="true" className="h-4 w-4" /> New Post
            </Button>
          }
        >
          Share news, events and thoughts on your site's Blog page.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Posts">
          {posts.data.map((p) => (
            <li key={p.id}>
              <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:justify-between">
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                    <span className={cn("rounded-full px-2 py-0.5 font-medium ring-1 ring-inset", BADGE[p.category])}>
                      {CATEGORY_LABELS[p.category]}
                    </span>
                    <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time>
                  </div>
                  <h2 className="mt-2 break-words text-base font-semibold text-slate-900">{p.title}</h2>
                  <p className="mt-1 line-clamp-2 break-words text-sm text-slate-600">{excerpt(p.content)}</p>
                </div>
                <div className="flex shrink-0 gap-2">
                  {subdomain ? (
                    <Button asChild variant="ghost" size="sm">
                      <a
                        href={`/author/${encodeURIComponent(subdomain)}/blog/${p.slug}`}
                        target="_blank"
                        rel="noopener"
                        aria-label={`View "${p.title}" on your site`}
                      >
                        <ExternalLink aria-hidden="true" className="h-4 w-4" /> View
                      </a>
                    </Button>
                  ) : null}
                  <Button variant="secondary" size="sm" onClick={() => onEdit(p)} aria-label={`Edit "${p.title}"`}>
                    <Pencil aria-hidden="true" className="h-4 w-4" /> Edit
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    className="text-red-700 hover:bg-red-50"
                    onClick={() => setDeleting(p)}
                    aria-label={`Delete "${p.title}"`}
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <BlogPageSettings />

      <DeletePostDialog
        post={deleting}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}
