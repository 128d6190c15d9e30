/** A select's options, one per value, shown as `label(value)` (the value itself by default). */
export function Options<V extends string>({ values, label }: { values: readonly V[]; label?: (value: V) => string }) {
  return values.map((v) => (
    <option key={v} value={v}>
      {label ? label(v) : v}
    </option>
  ));
}
