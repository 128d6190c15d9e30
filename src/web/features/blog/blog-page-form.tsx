// The Blog page's heading and introduction, on the Blog screen under the posts. Empty fields
// show the defaults (the placeholders say which).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  BLOG_DESCRIPTION_MAX,
  BLOG_PAGE_DEFAULTS,
  BLOG_PAGE_MESSAGES,
  BLOG_TITLE_MAX,
  type BlogPage,
  blogPageSchema,
} from "../../../shared/schemas/blog-page.ts";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Input, Textarea } from "../../components/ui/input.tsx";
import { LoadingBox } from "../../components/ui/loading-box.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { client, errorMessage, read } from "../../lib/api.ts";
import { setServerFieldError, useZodForm } from "../../lib/use-zod-form.ts";

const BLOG_PAGE_KEY = ["blog-page"] as const;

export function BlogPageSettings() {
  const page = useQuery({ queryKey: BLOG_PAGE_KEY, queryFn: () => read(client.site.blog.$get()) });
  return (
    <section aria-labelledby="blog-page-heading" className="space-y-3 pt-4">
      <div>
        <h2 id="blog-page-heading" className="text-lg font-semibold text-slate-900">
          Blog page
        </h2>
        <p className="mt-1 text-sm text-slate-600">The heading and introduction readers see above your posts.</p>
      </div>
      {page.isPending ? (
        <LoadingBox className="h-48" />
      ) : page.isError ? (
        <p className="text-sm text-red-700">Could not load the blog page settings. {errorMessage(page.error)}</p>
      ) : (
        <BlogPageForm initial={page.data} />
      )}
    </section>
  );
}

function BlogPageForm({ initial }: { initial: BlogPage }) {
  const qc = useQueryClient();
  const form = useZodForm(blogPageSchema, { title: initial.title ?? "", description: initial.description ?? "" });
  const { register, handleSubmit, formState, reset } = form;
  const save = useMutation({
    mutationFn: (body: BlogPage) => read(client.site.blog.$put({ json: body })),
    onSuccess: (saved) => {
      qc.setQueryData(BLOG_PAGE_KEY, saved);
      reset({ title: saved.title ?? "", description: saved.description ?? "" });
      toast.success(BLOG_PAGE_MESSAGES.saved);
    },
    onError: (err) => {
      if (!setServerFieldError(form, err)) toast.error(BLOG_PAGE_MESSAGES.failed, { description: errorMessage(err) });
    },
  });
  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-4">
          <Field alert label="Page title" hint="Empty: “Blog”." error={formState.errors.title?.message}>
            <Input maxLength={BLOG_TITLE_MAX} placeholder={BLOG_PAGE_DEFAULTS.title} {...register("title")} />
          </Field>
          <Field
            alert
            label="Page description"
            hint="Empty: the standard introduction shown as the placeholder."
            error={formState.errors.description?.message}
          >
            <Textarea
              rows={3}
              maxLength={BLOG_DESCRIPTION_MAX}
              placeholder={BLOG_PAGE_DEFAULTS.description}
              {...register("description")}
            />
          </Field>
          <div className="flex justify-end">
            <SaveButton busy={save.isPending} disabled={!formState.isDirty}>
              Save Blog Page
            </SaveButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
