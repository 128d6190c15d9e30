// A form's rich-text field: the editor in a `Field`, bound to the form by name (react-hook-form's
// Controller), so a screen writes `<RichTextField control={control} name="bio" label="Bio" />`.
import type { ComponentProps, ReactNode } from "react";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import type { UploadedImage } from "../../shared/schemas/uploads.ts";
import { RichTextEditor } from "./rich-text-editor.tsx";
import { Field } from "./ui/field.tsx";

/** Pictures in the editor: uploaded by `upload` (as WebP in sizes), inserted at their widest. */
export const uploadedImages = (upload: (file: File) => Promise<UploadedImage>) => ({
  upload: async (file: File) => {
    const img = await upload(file);
    return { src: img.url, alt: "", width: img.width, height: img.height };
  },
});

export function RichTextField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  error,
  alert,
  aside,
  invalid,
  minHeight,
  images,
  books,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  id?: string;
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  alert?: boolean;
  aside?: ReactNode;
  /** Rings the editor in red though no error shows under it (one explained above the form). */
  invalid?: boolean;
  minHeight?: ComponentProps<typeof RichTextEditor>["minHeight"];
  images?: ComponentProps<typeof RichTextEditor>["images"];
  books?: ComponentProps<typeof RichTextEditor>["books"];
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Field id={id} label={label} hint={hint} error={error} alert={alert} aside={aside}>
          <RichTextEditor
            aria-invalid={invalid || undefined}
            label={label}
            value={field.value ?? ""}
            onChange={field.onChange}
            {...(minHeight ? { minHeight } : {})}
            {...(images ? { images } : {})}
            {...(books ? { books } : {})}
          />
        </Field>
      )}
    />
  );
}
