// An agent's elicitation form as questions, and what is typed checked against the form's schema.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkChosen, MAX_ELICITATION_FIELDS, parseTyped, questionsOf, type Question } from '../../../../src/acp/session/elicitation';

describe('questionsOf', () => {
  it('asks each field by its kind: text, number, yes/no, one choice, several', () => {
    const form = questionsOf({
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', title: 'Your name', minLength: 2 },
        size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }], default: 'l' },
        colour: { type: 'string', enum: ['red', 'blue'] },
        count: { type: 'integer', minimum: 1, default: 3 },
        sure: { type: 'boolean', default: true },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
      },
    });
    assert.ok('questions' in form);
    assert.deepEqual(form.questions.map((question) => [question.key, question.kind, question.title, question.required]), [
      ['name', 'text', 'Your name', true],
      ['size', 'choice', 'size', false],
      ['colour', 'choice', 'colour', false],
      ['count', 'integer', 'count', false],
      ['sure', 'boolean', 'sure', false],
      ['tags', 'choices', 'tags', false],
    ]);
    const size = form.questions[1] as Question & { kind: 'choice' };
    assert.deepEqual(size.choices, [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }]);
    assert.equal(size.initial, 'l');
  });

  it('refuses a form with a field of a type it does not know, or with too many fields', () => {
    assert.match((questionsOf({ properties: { x: { type: '_custom' } } }) as { error: string }).error, /type we do not know/);
    const many = Object.fromEntries(Array.from({ length: MAX_ELICITATION_FIELDS + 1 }, (_, index) => [`f${index}`, { type: 'string' as const }]));
    assert.match((questionsOf({ properties: many }) as { error: string }).error, /more than/);
  });
});

describe('parseTyped and checkChosen', () => {
  const form = questionsOf({ properties: { name: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' }, n: { type: 'integer', minimum: 1, maximum: 9 }, x: { type: 'number' }, tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 } } });
  const [name, n, x, tags] = (form as { questions: Question[] }).questions as [Question & { kind: 'text' }, Question & { kind: 'integer' }, Question & { kind: 'number' }, Question & { kind: 'choices' }];

  it('checks length and pattern of text', () => {
    assert.deepEqual(parseTyped(name, 'abc'), { value: 'abc' });
    assert.match((parseTyped(name, 'a') as { error: string }).error, /at least 2/);
    assert.match((parseTyped(name, 'abcde') as { error: string }).error, /at most 4/);
    assert.match((parseTyped(name, 'AB') as { error: string }).error, /must match/);
  });

  it('checks numbers, whole numbers and bounds', () => {
    assert.deepEqual(parseTyped(n, ' 4 '), { value: 4 });
    assert.match((parseTyped(n, '4.5') as { error: string }).error, /whole number/);
    assert.match((parseTyped(n, '10') as { error: string }).error, /at most 9/);
    assert.match((parseTyped(x, 'ten') as { error: string }).error, /a number/);
    assert.deepEqual(parseTyped(x, '2.5'), { value: 2.5 });
  });

  it('checks how many were chosen', () => {
    assert.match(checkChosen(tags, []) ?? '', /at least 1/);
    assert.equal(checkChosen(tags, ['a']), undefined);
  });
});
