// What the user attaches to a prompt, as ACP content: embedded resources and images only where the agent's
// promptCapabilities allow, and a file our Read refuses is not sent at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptContent, type PromptAttachment, type ReadForPrompt } from '../../../src/acp/mapping';

const file: PromptAttachment = { kind: 'file', uri: 'file:///w/a.txt', path: '/w/a.txt', name: 'a.txt' };
const range: PromptAttachment = { kind: 'file', uri: 'file:///w/a.txt', path: '/w/a.txt', name: 'a.txt', lines: { first: 2, last: 3 } };
const folder: PromptAttachment = { kind: 'folder', uri: 'file:///w/src', name: 'src' };
const image: PromptAttachment = { kind: 'image', mimeType: 'image/png', name: 'shot.png', data: new Uint8Array([1, 2, 3]) };
const text: PromptAttachment = { kind: 'text', text: 'a value' };

function reader(answers: Record<string, string | { refused: string }>): ReadForPrompt & { asked: unknown[] } {
  const asked: unknown[] = [];
  const read = async (path: string, lines?: { first: number; last: number }) => {
    asked.push([path, lines]);
    const answer = answers[path];
    return typeof answer === 'string' ? { text: answer } : (answer ?? { refused: 'not found' });
  };
  return Object.assign(read, { asked });
}

describe('promptContent', () => {
  it('without embeddedContext or image: files and ranges as resource_link, nothing read, images not sent', async () => {
    const read = reader({});
    const { blocks, notSent } = await promptContent([file, range, folder, image, text], {}, read);
    assert.deepEqual(blocks, [
      { type: 'resource_link', uri: 'file:///w/a.txt', name: 'a.txt' },
      { type: 'resource_link', uri: 'file:///w/a.txt', name: 'a.txt', description: 'lines 2-3' },
      { type: 'resource_link', uri: 'file:///w/src', name: 'src' },
      { type: 'text', text: 'a value' },
    ]);
    assert.deepEqual(notSent, ['shot.png (image/png): the agent does not take images']);
    assert.deepEqual(read.asked, []);
  });

  it('with embeddedContext and image: files and ranges as embedded resources of what Read gave, images as image blocks', async () => {
    const read = reader({ '/w/a.txt': 'two\nthree\n' });
    const { blocks, notSent } = await promptContent([file, range, folder, image], { embeddedContext: true, image: true }, read);
    assert.deepEqual(blocks, [
      { type: 'resource', resource: { uri: 'file:///w/a.txt', text: 'two\nthree\n' } },
      { type: 'resource', resource: { uri: 'file:///w/a.txt#L2-3', text: 'two\nthree\n' } },
      { type: 'resource_link', uri: 'file:///w/src', name: 'src' },
      { type: 'image', mimeType: 'image/png', data: 'AQID' },
    ]);
    assert.deepEqual(notSent, []);
    assert.deepEqual(read.asked, [['/w/a.txt', undefined], ['/w/a.txt', { first: 2, last: 3 }]]);
  });

  it('a file Read refuses (an ignore file, a denial) is not sent, not even as a link, and the reason is kept', async () => {
    const read = reader({ '/w/a.txt': { refused: '/w/a.txt is excluded by .aiignore' } });
    const { blocks, notSent } = await promptContent([range], { embeddedContext: true }, read);
    assert.deepEqual(blocks, []);
    assert.deepEqual(notSent, ['/w/a.txt, lines 2-3: /w/a.txt is excluded by .aiignore']);
  });
});
