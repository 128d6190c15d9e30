// A form's on/off switch bound by name (react-hook-form's Controller), as RichTextField binds the
// editor: `<SwitchField control={control} name="antispamEnabled" label="Anti-spam" />`.
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import { Switch } from "./ui/switch.tsx";

export function SwitchField<T extends FieldValues, Out = T>({
  control,
  name,
  label,
  description,
  disabled,
  onChange,
}: {
  /** The form's control (a form whose schema transforms its values included). */
  control: Control<T, unknown, Out>;
  name: FieldPath<T>;
  label: string;
  description?: string;
  disabled?: boolean;
  /** Runs once the form holds the new value. */
  onChange?: (on: boolean) => void;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          label={label}
          description={description}
          checked={field.value}
          disabled={disabled}
          onChange={(on) => {
            field.onChange(on);
            onChange?.(on);
          }}
        />
      )}
    />
  );
}
