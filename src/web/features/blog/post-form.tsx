// The create/edit form: title, category and the rich-text body. Checked with the server's own
// schema first, so a blank title or body gets the spec's 'Please fill in all fields' at once.
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { POST_CATEGORIES, type PostCategory } from "../../../shared/enums.ts";
import { CATEGORY_LABELS, POST_LIMITS, POST_MESSAGES, postCreateSchema } from "../../../shared/schemas/post.ts";
import { RichTextEditor } from "../../components/rich-text-editor.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Label } from "../../components/ui/label.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { createPost, type Post, updatePost } from "./blog-api.ts";

type Values = { title: string; content: string; category: PostCategory };
type Key = keyof Values;
type Errors = Partial<Record<Key, string>>;

export function PostForm({
  post,
  onSaved,
  onCancel,
}: {
  /** The post being edited; null for a new one. */
  post: Post | null;
  onSaved: (saved: Post) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<Values>(() => ({
    title: post?.title ?? "",
    content: post?.content ?? "",
    category: post?.category ?? "news",
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [blank, setBlank] = useState(false);
  const set = <K extends Key>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const save = useMutation({
    mutationFn: (body: Values) => (post ? updatePost(post.id, body) : createPost(body)),
    onSuccess: (saved) => {
      toast.success(post ? POST_MESSAGES.updated : POST_MESSAGES.created);
      onSaved(saved);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field && err.field in values) {
        setErrors({ [err.field]: err.message });
        setBlank(err.message === POST_MESSAGES.required);
      }
      toast.error(POST_MESSAGES.saveFailed, { description: errorMessage(err) });
    },
  });

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const parsed = postCreateSchema.safeParse(values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Key] ??= issue.message;
      setErrors(found);
      const isBlank = Object.values(found).includes(POST_MESSAGES.required);
      setBlank(isBlank);
      const first = (["title", "category", "content"] as const).find((k) => found[k]);
      document.getElementById(`post-${first}`)?.focus();
      toast.error(isBlank ? POST_MESSAGES.required : POST_MESSAGES.saveFailed, {
        description: isBlank ? undefined : Object.values(found)[0],
      });
      return;
    }
    setBlank(false);
    save.mutate(parsed.data);
  }

  const busy = save.isPending;
  // A blank field is explained once, above the form; other problems sit under their field.
  const fieldError = (k: Key) => (errors[k] && errors[k] !== POST_MESSAGES.required ? errors[k] : undefined);

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6" aria-labelledby="post-form-heading">
      <div>
        <h1 id="post-form-heading" className="text-2xl font-bold tracking-tight text-slate-900">
          {post ? "Edit Post" : "New Post"}
        </h1>
        <p className="mt-1 text-sm text-slate-600">Posts appear on your site's Blog page, newest first.</p>
      </div>

      {blank ? <Alert tone="error">{POST_MESSAGES.required}</Alert> : null}

      <Card>
        <CardContent className="space-y-5">
          <div className="grid gap-5 sm:grid-cols-[1fr_12rem]">
            <Field
              id="post-title"
              label="Title"
              value={values.title}
              maxLength={POST_LIMITS.title}
              aria-invalid={errors.title ? true : undefined}
              error={fieldError("title")}
              onChange={(e) => set("title", e.target.value)}
            />
            <div className="space-y-1.5">
              <Label htmlFor="post-category">Category</Label>
              <select
                id="post-category"
                value={values.category}
                onChange={(e) => set("category", e.target.value as PostCategory)}
                className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
              >
                {POST_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {CATEGORY_LABELS[c]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="space-y-1.5">
            <label htmlFor="post-content" className="block text-sm font-medium text-slate-700">
              Content
            </label>
            <div className={errors.content ? "rounded-md ring-2 ring-red-300" : undefined}>
              <RichTextEditor
                id="post-content"
                label="Content"
                minHeight="min-h-64"
                describedBy={fieldError("content") ? "post-content-error" : "post-content-hint"}
                value={values.content}
                onChange={(html) => set("content", html)}
              />
            </div>
            {fieldError("content") ? (
              <p id="post-content-error" className="text-sm text-red-700">
                {fieldError("content")}
              </p>
            ) : (
              <p id="post-content-hint" className="text-xs text-slate-500">
                Bold, italic, lists and links: select some words, then choose Link. Pasted text arrives without its
                formatting.
              </p>
            )}
          </div>
        </CardContent>
      </Card>

      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : post ? "Update Post" : "Create Post"}
        </Button>
      </div>
    </form>
  );
}
