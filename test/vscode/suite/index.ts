// The entry VS Code loads as `extensionTestsPath`: runs every *.test.js beside it with mocha,
// inside the real extension host, and ends with a plain `vscode: N passed, N failed` line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
// Suites that drive the core's modules directly (not the bundled extension's) resolve paths on this machine too.
import '../../installNodePorts';

/** Per test; a test that waits on the workbench (an editor to open) finishes in well under a second. */
const TEST_TIMEOUT_MS = 30_000;

/**
 * Marks the suite's own lines in the workbench log, which also carries the workbench's chatter;
 * test/vscode/run.ts prints only marked lines. Keep in step with `SUITE_LINE_PREFIX` there.
 */
const SUITE_LINE_PREFIX = '[suite] ';

function report(...args: unknown[]): void {
  const text = format(...args);
  console.log(text.split('\n').map((line) => SUITE_LINE_PREFIX + line).join('\n'));
}

export function run(): Promise<void> {
  Mocha.reporters.Base.consoleLog = report;
  // `ATE_SUITE_GREP=pattern node out/test/vscode/run.js` runs only the matching tests (the server passes its environment on).
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: TEST_TIMEOUT_MS, reporter: 'spec', ...(process.env.ATE_SUITE_GREP ? { grep: process.env.ATE_SUITE_GREP } : {}) });
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (file.endsWith('.test.js')) {
      mocha.addFile(path.join(__dirname, file));
    }
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const { passes = 0, pending = 0 } = runner.stats ?? {};
      report(`vscode: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      if (failures > 0) {
        reject(new Error(`${failures} test(s) failed`));
      } else if (passes === 0) {
        reject(new Error('no test ran'));
      } else {
        resolve();
      }
    });
  });
}
