import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EscapeStripper, MAX_ESCAPE_SEQUENCE_BYTES } from '../../../src/tools/shell/terminalEscapes';

const strip = (chunks: readonly string[]) => {
  const stripper = new EscapeStripper();
  return chunks.map((chunk) => stripper.strip(Buffer.from(chunk, 'utf8')).toString('utf8')).join('');
};

describe('terminal escapes in command output', () => {
  it('removes colours, cursor moves, OSC titles and hyperlinks, keeping the text', () => {
    assert.equal(strip(['\u001b[1;31mred\u001b[0m \u001b[2K\u001b[1A']), 'red ');
    assert.equal(strip(['a\u001b]0;title\u0007b']), 'ab');
    assert.equal(strip(['\u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\']), 'link');
    assert.equal(strip(['\u001b(Bplain\u001bc']), 'plain');
  });

  it('finishes a sequence cut between chunks, at any byte', () => {
    const text = 'ok \u001b[38;5;196mred\u001b[0m é \u001b]2;t\u0007done';
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const stripper = new EscapeStripper();
      const out = Buffer.concat([stripper.strip(bytes.subarray(0, cut)), stripper.strip(bytes.subarray(cut))]).toString('utf8');
      assert.equal(out, 'ok red é done', `cut at ${cut}`);
    }
  });

  it('gives up on an endless sequence and keeps the output after it', () => {
    const out = strip([`\u001b]${'x'.repeat(MAX_ESCAPE_SEQUENCE_BYTES + 10)}`]);
    assert.match(out, /^x+$/);
    assert.ok(out.length > 0 && out.length <= 10 + 1);
  });
});
