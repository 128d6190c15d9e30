// The create/edit form: title, category and the rich-text body. Checked with the server's own
// schema first, so a blank title or body gets the spec's 'Please fill in all fields' at once.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { POST_CATEGORIES } from "../../../shared/enums.ts";
import {
  CATEGORY_LABELS,
  POST_LIMITS,
  POST_MESSAGES,
  type PostCreate,
  postCreateSchema,
} from "../../../shared/schemas/post.ts";
import { RichTextField, uploadedImages } from "../../components/rich-text-field.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { SELECT_CLASS } from "../../components/ui/input.tsx";
import { Options } from "../../components/ui/options.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { useBookChoices } from "../../lib/book-choices.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { createPost, type Post, updatePost, uploadPostImage } from "./blog-api.ts";

/** Pictures in posts: uploaded as WebP in sizes, inserted at their widest (the site adds a srcset). */
const POST_IMAGES = uploadedImages(uploadPostImage);

type Key = keyof PostCreate;
// Screen order: the first wrong one gets the focus.
const KEYS = ["title", "category", "content"] as const satisfies readonly Key[];

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
  const books = useBookChoices();
  const form = useZodForm(postCreateSchema, {
    title: post?.title ?? "",
    content: post?.content ?? "",
    category: post?.category ?? "news",
  });
  const { register, control, handleSubmit, formState, setError, getValues } = form;
  const errors = formState.errors;
  // The spec's 'Please fill in all fields' stays above the form until the author types.
  const [blank, setBlank] = useState(false);
  useEffect(() => {
    if (!blank) return;
    const sub = form.watch(() => setBlank(false));
    return () => sub.unsubscribe();
  }, [blank, form]);

  const save = useMutation({
    mutationFn: (body: PostCreate) => (post ? updatePost(post.id, body) : createPost(body)),
    onSuccess: (saved) => {
      toast.success(post ? POST_MESSAGES.updated : POST_MESSAGES.created);
      onSaved(saved);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field && err.field in getValues()) {
        setError(err.field as Key, { type: "server", message: err.message });
        setBlank(err.code === "required");
      }
      toast.error(POST_MESSAGES.saveFailed, { description: errorMessage(err) });
    },
  });

  const onSubmit = handleSubmit(
    (body) => {
      setBlank(false);
      save.mutate(body);
    },
    (found) => {
      const messages = KEYS.map((k) => found[k]?.message).filter((m): m is string => Boolean(m));
      const isBlank = messages.includes(POST_MESSAGES.required);
      setBlank(isBlank);
      // The editor is not a registered input, so the form cannot focus it itself.
      const first = KEYS.find((k) => found[k]);
      document.getElementById(`post-${first}`)?.focus();
      toast.error(isBlank ? POST_MESSAGES.required : POST_MESSAGES.saveFailed, {
        description: isBlank ? undefined : Object.values(found)[0]?.message,
      });
    },
  );

  const busy = save.isPending;
  // A blank field is explained once, above the form; other problems sit under their field.
  const fieldError = (k: Key) => {
    const message = errors[k]?.message;
    return message && message !== POST_MESSAGES.required ? message : undefined;
  };

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
              maxLength={POST_LIMITS.title}
              aria-invalid={errors.title ? true : undefined}
              error={fieldError("title")}
              {...register("title")}
            />
            <Field id="post-category" label="Category">
              <select {...register("category")} className={SELECT_CLASS}>
                <Options values={POST_CATEGORIES} label={(c) => CATEGORY_LABELS[c]} />
              </select>
            </Field>
          </div>
          <RichTextField
            control={control}
            name="content"
            id="post-content"
            label="Content"
            hint="Bold, italic, lists and links: select some words, then choose Link. Insert image adds a picture (upload one or give its address) with a description for readers who cannot see it. Pasted text arrives without its formatting."
            error={fieldError("content")}
            minHeight="min-h-64"
            images={POST_IMAGES}
            books={books}
            invalid={Boolean(errors.content)}
          />
        </CardContent>
      </Card>

      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <SaveButton busy={busy}>{post ? "Update Post" : "Create Post"}</SaveButton>
      </div>
    </form>
  );
}
