import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

/** The repository root, from out/test/unit/scripts. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const CLEAN_ENV = path.join(ROOT, 'scripts', 'clean-env.sh');

/** What npm 11 on Node 20 exports to a script it runs (seen with `npm run` of `env`). */
const OUTER_NPM_ENV: Record<string, string> = {
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_node_execpath: '/usr/bin/node',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  npm_config_nodedir: '/usr',
  npm_config_yes: 'false',
  npm_lifecycle_event: 'test',
  npm_package_json: '/work/main/package.json',
  NPM_CONFIG_LOGLEVEL: 'silent',
  NODE: '/usr/bin/node',
  INIT_CWD: '/work/main',
  COLOR: '0',
};

/** The environment a command sees when started through clean-env.sh from `env`. */
function childEnv(env: Record<string, string>, ...assignments: string[]): Record<string, string> {
  const out = execFileSync('bash', [CLEAN_ENV, ...assignments, process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.env))'], { env, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, string>;
}

describe('scripts/clean-env.sh (nested installs do not inherit the outer npm)', () => {
  it('drops every variable an outer npm exports, whatever their case', () => {
    const seen = childEnv({ ...OUTER_NPM_ENV, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root' });
    const leaked = Object.keys(seen).filter((name) => name in OUTER_NPM_ENV);
    assert.deepEqual(leaked, []);
  });

  it('drops the PATH entries an outer npm prepends, keeps the rest in order', () => {
    const nodeDir = path.dirname(process.execPath);
    const outerPath = ['/work/main/node_modules/.bin', '/node_modules/.bin', '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin', '/opt/node24/bin', nodeDir, '/usr/bin', '/bin'].join(':');
    const seen = childEnv({ PATH: outerPath });
    assert.equal(seen.PATH, ['/opt/node24/bin', nodeDir, '/usr/bin', '/bin'].join(':'));
  });

  it('keeps what the user set (HOME, proxies, CA bundles) and applies the assignments it is given', () => {
    const seen = childEnv(
      { ...OUTER_NPM_ENV, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/home/u', HTTPS_PROXY: 'http://127.0.0.1:3128', NODE_EXTRA_CA_CERTS: '/etc/ca.pem' },
      'npm_config_nodedir=/opt/node24', 'npm_config_yes=true',
    );
    assert.equal(seen.HOME, '/home/u');
    assert.equal(seen.HTTPS_PROXY, 'http://127.0.0.1:3128');
    assert.equal(seen.NODE_EXTRA_CA_CERTS, '/etc/ca.pem');
    assert.equal(seen.npm_config_nodedir, '/opt/node24');
    assert.equal(seen.npm_config_yes, 'true');
    assert.equal(seen.npm_config_user_agent, undefined);
  });

  it('is how every nested npm in the setup scripts runs', () => {
    const offenders: string[] = [];
    for (const name of fs.readdirSync(path.join(ROOT, 'scripts')).filter((file) => file.endsWith('.sh'))) {
      // Continuation lines belong to the command they continue.
      const text = fs.readFileSync(path.join(ROOT, 'scripts', name), 'utf8').replace(/\\\n\s*/g, ' ');
      for (const line of text.split('\n')) {
        if (/^\s*#/.test(line)) continue;
        // Quoted text is a message, not a command.
        const code = line.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""');
        // The project's own `npm ci`/`npm run` share the outer npm's Node; nested installs of other packages must not.
        if (/\bnpm (install|i|exec|x)\b|\bnpx\b/.test(code) && !line.includes('clean-env.sh')) offenders.push(`${name}: ${line.trim()}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
