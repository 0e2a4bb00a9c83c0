// Row 10: the production extension bundle's size (and its largest packages), the files it loads only on
// first use (scripts/build.mjs), and load + activate().
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fmt, productionBundle, REPEATS, REPO_ROOT, runTimed, stat, type Row } from '../lib';

const KIB = 1024;

interface Metafile {
  readonly outputs: Record<string, { readonly inputs: Record<string, { readonly bytesInOutput: number }> }>;
}

/** Bytes in the output per npm package (or `src` for our own code). */
function weights(meta: Metafile, outfile: string): Array<[string, number]> {
  const output = Object.entries(meta.outputs).find(([name]) => path.resolve(REPO_ROOT, name) === path.resolve(outfile))?.[1];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const name = match ? match[1]! : 'ours';
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()].sort((a, b) => b[1] - a[1]);
}

export async function bundleRow(): Promise<Row> {
  const outdir = await productionBundle();
  const extension = path.join(outdir, 'extension.js');
  const size = statSync(extension).size / KIB;
  const meta = JSON.parse(readFileSync(`${extension}.meta.json`, 'utf8')) as Metafile;
  const top = weights(meta, extension)
    .slice(0, 4)
    .map(([name, bytes]) => `${name} ${Math.round(bytes / KIB)}`)
    .join(', ');
  // Every other bundle beside it but the CLI's (cli.js, the launcher of cli-main.js, and cli-import.js) is one
  // the extension requires on first use.
  const lazy = readdirSync(outdir)
    .filter((name) => name.endsWith('.js') && name !== 'extension.js' && !/^cli(?:-main|-import)?\.js$/.test(name))
    .map((name) => [name, statSync(path.join(outdir, name)).size / KIB] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([name, kib]) => `${name} ${Math.round(kib)}`)
    .join(', ');
  const child = path.join(REPO_ROOT, 'out', 'bench', 'child', 'activate.js');
  const totals: number[] = [];
  for (let repeat = 0; repeat < REPEATS + 2; repeat++) {
    const run = await runTimed(process.execPath, [child, extension]);
    if (run.code !== 0) throw new Error(`activate child failed: ${run.stdout}`);
    const { loadMs, activateMs } = JSON.parse(run.stdout.trim()) as { loadMs: number; activateMs: number };
    totals.push(loadMs + activateMs);
  }
  const ms = stat(totals);
  return {
    measure: 'extension bundle; load + `activate()`',
    baseline: '—',
    now: `${Math.round(size)} KiB (${top} KiB), loaded on first use: ${lazy} KiB; ${fmt(ms, 0, ' ms')} load + activate in Node with a \`vscode\` stub`,
    goal: '≤ 600 KiB; ≤ 30 ms in the real extension host',
    met: size <= 600 && ms.median <= 30,
    note: 'the size is dist/extension.js alone, which every window loads; the files loaded on first use (agent bridge, ACP SDK, zod, unbash, turndown, sandbox runtime) are listed apart. load + activate is measured in plain Node with a stub `vscode` module (bench/child/activate.ts), not in the real extension host: starting code-server per run would dwarf the number; in this run the time includes loading Node built-ins (crypto, child_process, stream, …) for the first time in the process',
  };
}
