// Go-style durations for the timeout message of spec §4: 300000 → "5m0s", 90000 → "1m30s", 1500 → "1.5s".

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;

/** Formats milliseconds the way Go's `time.Duration.String()` does (to millisecond precision). */
export function formatGoDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) {
    return '0s';
  }
  const total = Math.round(ms);
  if (total < MS_PER_SECOND) {
    return `${total}ms`;
  }
  const hours = Math.floor(total / MS_PER_HOUR);
  const minutes = Math.floor((total % MS_PER_HOUR) / MS_PER_MINUTE);
  const secondsMs = total % MS_PER_MINUTE;
  const seconds = formatSeconds(secondsMs);
  if (hours > 0) {
    return `${hours}h${minutes}m${seconds}s`;
  }
  if (minutes > 0) {
    return `${minutes}m${seconds}s`;
  }
  return `${seconds}s`;
}

function formatSeconds(ms: number): string {
  const whole = Math.floor(ms / MS_PER_SECOND);
  const fraction = ms % MS_PER_SECOND;
  if (fraction === 0) {
    return String(whole);
  }
  return `${whole}.${String(fraction).padStart(3, '0').replace(/0+$/, '')}`;
}
