// A real VS Code server (the one code-server bundles) on a free loopback port, in its own
// process group, with fresh user-data, server-data and extensions folders under a scratch folder.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { killGroup, spawnGroup, type GroupProcess } from './processes';
import type { VscodePaths } from './paths';

/** The server answers /version well under a second after start; this bounds a broken start. */
const SERVER_START_TIMEOUT_MS = 60_000;
/** Installing a .vsix takes under a second; this bounds a hung install. */
const INSTALL_TIMEOUT_MS = 60_000;
const POLL_INTERVAL_MS = 100;

/** The scratch layout one run uses; everything a run writes stays under `root`. */
export interface Scratch {
  readonly root: string;
  readonly runTag: string;
  readonly userData: string;
  readonly serverData: string;
  readonly extensions: string;
  readonly browserProfile: string;
  readonly workspace: string;
  /** Environment for VS Code processes: XDG folders inside the scratch folder, not the home folder. */
  readonly env: NodeJS.ProcessEnv;
}

export function makeScratch(prefix: string): Scratch {
  const root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), `${prefix}-`));
  const dir = (name: string) => {
    const full = path.join(root, name);
    // Created up front: a missing extensions folder silently drops the development extension.
    fs.mkdirSync(full, { recursive: true });
    return full;
  };
  return {
    root,
    runTag: `${path.basename(root)}:`,
    userData: dir('user-data'),
    serverData: dir('server-data'),
    extensions: dir('extensions'),
    browserProfile: dir('browser-profile'),
    workspace: dir('workspace'),
    env: { ...process.env, XDG_CONFIG_HOME: dir('xdg-config'), XDG_DATA_HOME: dir('xdg-data'), XDG_CACHE_HOME: dir('xdg-cache') },
  };
}

export interface VscodeServer {
  readonly port: number;
  readonly origin: string;
  /** The URL that opens `folder` in the workbench, with an optional test payload. */
  workbenchUrl(folder: string, payload?: readonly (readonly [string, string])[]): string;
  /** `vscode-remote://` URI of a server-side path, as payloads name them. */
  remoteUri(absolutePath: string): string;
  /** Resolves with the exit code (or signal name) when the server exits, on its own or by `stop`. */
  readonly exited: Promise<number | string>;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** A port known to be free (`npm start` prefers a fixed one); by default any free loopback port. */
  readonly port?: number;
}

export async function startServer(paths: VscodePaths, scratch: Scratch, options: StartServerOptions = {}): Promise<VscodeServer> {
  const port = options.port ?? (await freePort());
  const logFile = path.join(scratch.root, 'server.log');
  const server = spawnGroup('vscode-server', paths.NODE_BIN, [
    paths.SERVER_MAIN,
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms', '--enable-smoke-test-driver',
    '--disable-telemetry', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes',
    '--user-data-dir', scratch.userData, '--server-data-dir', scratch.serverData,
    '--extensions-dir', scratch.extensions,
  ], `${scratch.runTag}server`, { env: scratch.env });
  pipeToFile(server, logFile);
  try {
    await waitForVersion(port, server);
  } catch (error) {
    await killGroup(server, `${scratch.runTag}server`);
    throw new Error(`VS Code server did not start: ${(error as Error).message}\n${tail(logFile)}`);
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    workbenchUrl(folder, payload) {
      const query = new URLSearchParams({ folder });
      if (payload) {
        query.set('payload', JSON.stringify(payload));
      }
      return `${origin}/?${query.toString()}`;
    },
    remoteUri: (absolutePath) => `vscode-remote://127.0.0.1:${port}${absolutePath}`,
    exited: server.exited,
    stop: () => killGroup(server, `${scratch.runTag}server`),
  };
}

/** Installs a packaged .vsix with the server's own CLI, as a user's `--install-extension` would. */
export async function installVsix(paths: VscodePaths, scratch: Scratch, vsix: string, extensionsDir = scratch.extensions): Promise<string> {
  const tag = `${scratch.runTag}install`;
  const logFile = path.join(scratch.root, 'install.log');
  const install = spawnGroup('vscode-install', paths.NODE_BIN, [
    paths.SERVER_MAIN, '--accept-server-license-terms',
    '--user-data-dir', scratch.userData, '--server-data-dir', scratch.serverData,
    '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force',
  ], tag, { env: scratch.env });
  pipeToFile(install, logFile);
  const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, INSTALL_TIMEOUT_MS, 'timeout').unref());
  const outcome = await Promise.race([install.exited, timer]);
  await killGroup(install, tag);
  if (outcome !== 0) {
    throw new Error(`installing ${vsix} failed (${outcome}):\n${tail(logFile)}`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(paths.REPO_ROOT, 'package.json'), 'utf8'));
  const folder = path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  if (!fs.existsSync(path.join(folder, 'package.json'))) {
    throw new Error(`installing ${vsix} reported success but ${folder} is missing:\n${tail(logFile)}`);
  }
  return folder;
}

/** Copies a plain-JS fixture extension into the extensions folder as `publisher.name-version`, as an installed one sits. */
export function installFixtureExtension(folder: string, extensionsDir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  fs.cpSync(folder, path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), { recursive: true });
}

/** A loopback port nothing listens on: `preferred` when it is free, else one the system picks. */
export async function freePort(preferred = 0): Promise<number> {
  if (preferred === 0) return listenOnce(0);
  return listenOnce(preferred).catch(() => listenOnce(0));
}

function listenOnce(wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(wanted, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForVersion(port: number, server: GroupProcess): Promise<void> {
  let exited: number | string | undefined;
  void server.exited.then((code) => (exited = code));
  const started = Date.now();
  while (Date.now() - started < SERVER_START_TIMEOUT_MS) {
    if (exited !== undefined) {
      throw new Error(`the server exited (${exited})`);
    }
    if (await answers(`http://127.0.0.1:${port}/version`)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  throw new Error(`no answer on /version within ${SERVER_START_TIMEOUT_MS} ms`);
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.once('error', () => resolve(false));
    request.setTimeout(1000, () => request.destroy());
  });
}

function pipeToFile(group: GroupProcess, file: string): void {
  const out = fs.createWriteStream(file, { flags: 'a' });
  group.child.stdout?.pipe(out);
  group.child.stderr?.pipe(out);
}

/** The last lines of a log, for failure messages. */
export function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return `(no ${file})`;
  }
}
