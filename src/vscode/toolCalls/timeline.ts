// The timeline picture of one turn: one row per call, bars for queued, waiting for
// approval and running, so what waited, what ran in parallel and what was slow show at a glance.
// Plain SVG text with theme colours (CSS variables of the webview); no `vscode`, no network.
import { escapeForDisplay } from '../../executor';
import type { CallRecord, TurnRecord } from './model';

/** Layout, in pixels. Ours. */
export const TIMELINE_ROW_HEIGHT = 24;
export const TIMELINE_LABEL_WIDTH = 220;
export const TIMELINE_PLOT_WIDTH = 640;
const BAR_HEIGHT = 14;
const AXIS_HEIGHT = 28;
const TICKS = 5;

/** Bar colours: the workbench's chart colours, so the picture follows the theme. */
const COLOURS = {
  queued: 'var(--vscode-charts-yellow, #cca700)',
  approval: 'var(--vscode-charts-orange, #d18616)',
  running: 'var(--vscode-charts-blue, #3794ff)',
  failed: 'var(--vscode-charts-red, #f14c4c)',
  text: 'var(--vscode-foreground, #cccccc)',
  grid: 'var(--vscode-editorWidget-border, #454545)',
};

interface Bar {
  readonly kind: 'queued' | 'approval' | 'running';
  readonly from: number;
  readonly to: number;
}

/** The bars of one call, from its recorded times; a phase still going runs to `now`. */
export function barsOf(call: CallRecord, now: number): Bar[] {
  const bars: Bar[] = [];
  const end = call.endedAt ?? now;
  if (call.queuedAt !== undefined) {
    const until = call.askedAt ?? call.startedAt ?? end;
    if (until > call.queuedAt) bars.push({ kind: 'queued', from: call.queuedAt, to: until });
  }
  if (call.askedAt !== undefined) bars.push({ kind: 'approval', from: call.askedAt, to: call.answeredAt ?? end });
  if (call.startedAt !== undefined) bars.push({ kind: 'running', from: call.startedAt, to: end });
  return bars;
}

/**
 * The SVG of a turn; `now` is the turn-relative time for phases still going. The axis starts at the
 * first call's first event (the model may stream for a while before it calls anything).
 */
export function timelineSvg(turn: TurnRecord, now: number): string {
  const rows = turn.calls.map((call) => barsOf(call, now));
  const starts = rows.flatMap((bars) => bars.map((bar) => bar.from));
  const origin = starts.length > 0 ? Math.min(...starts) : 0;
  const last = Math.max(origin, ...rows.flatMap((bars) => bars.map((bar) => bar.to)));
  const span = Math.max(1, last - origin);
  const scale = TIMELINE_PLOT_WIDTH / span;
  const height = AXIS_HEIGHT + turn.calls.length * TIMELINE_ROW_HEIGHT;
  const width = TIMELINE_LABEL_WIDTH + TIMELINE_PLOT_WIDTH + 16;
  const parts: string[] = [];
  for (let tick = 0; tick <= TICKS; tick++) {
    const x = TIMELINE_LABEL_WIDTH + (tick * TIMELINE_PLOT_WIDTH) / TICKS;
    parts.push(`<line x1="${x}" y1="${AXIS_HEIGHT - 6}" x2="${x}" y2="${height}" stroke="${COLOURS.grid}" stroke-width="1"/>`);
    parts.push(`<text x="${x}" y="${AXIS_HEIGHT - 10}" font-size="11" text-anchor="middle" fill="${COLOURS.text}">${formatMs((tick * span) / TICKS)}</text>`);
  }
  turn.calls.forEach((call, row) => {
    const y = AXIS_HEIGHT + row * TIMELINE_ROW_HEIGHT;
    const label = `${call.name}${call.group === undefined ? '' : ` · g${call.group}`} — ${statusWord(call)}`;
    parts.push(`<text x="4" y="${y + TIMELINE_ROW_HEIGHT / 2 + 4}" font-size="12" fill="${COLOURS.text}">${xml(label)}</text>`);
    for (const bar of rows[row]!) {
      const colour = bar.kind === 'running' && (call.status === 'failed' || call.status === 'cancelled') ? COLOURS.failed : COLOURS[bar.kind];
      const x = TIMELINE_LABEL_WIDTH + (bar.from - origin) * scale;
      const w = Math.max(2, (bar.to - bar.from) * scale);
      parts.push(`<rect class="${bar.kind}" x="${x.toFixed(1)}" y="${y + (TIMELINE_ROW_HEIGHT - BAR_HEIGHT) / 2}" width="${w.toFixed(1)}" height="${BAR_HEIGHT}" rx="2" fill="${colour}"><title>${xml(`${call.name} ${bar.kind}: ${formatMs(bar.to - bar.from)}`)}</title></rect>`);
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${xml(`Timeline of ${turn.label}`)}">${parts.join('')}</svg>`;
}

/** The legend, as HTML for the panel. */
export function timelineLegend(): string {
  const item = (colour: string, text: string) => `<span class="legend"><svg width="12" height="12"><rect width="12" height="12" rx="2" fill="${colour}"/></svg> ${text}</span>`;
  return [item(COLOURS.queued, 'queued'), item(COLOURS.approval, 'waiting for approval'), item(COLOURS.running, 'running'), item(COLOURS.failed, 'failed or cancelled')].join(' ');
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function statusWord(call: CallRecord): string {
  switch (call.status) {
    case 'awaitingApproval':
      return 'awaiting approval';
    default:
      return call.status;
  }
}

function xml(text: string): string {
  return escapeForDisplay(text).replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
