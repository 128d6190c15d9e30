/**
 * A bar filled to `percent`, read out as `label` at `now` of `max`. `className` is the track (its
 * height, margin, colour), `fillClassName` the filled part.
 */
export function ProgressBar(props: {
  label: string;
  now: number;
  max: number;
  percent: number;
  className: string;
  fillClassName: string;
}) {
  return (
    <div
      className={props.className}
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={props.max}
      aria-valuenow={props.now}
    >
      <div className={props.fillClassName} style={{ width: `${props.percent}%` }} />
    </div>
  );
}
