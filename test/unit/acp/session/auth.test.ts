// Signing in when an agent answers auth_required: the user's choice is sent as `authenticate`, then the request again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTH_REQUIRED_CODE, MAX_SIGN_INS, withSignIn, type Authenticator } from '../../../../src/acp/session/auth';
import type { Acp } from '../../../../src/acp/sdk';

const authRequired = () => Object.assign(new Error('Authentication required'), { code: AUTH_REQUIRED_CODE });

function agent(methods: Acp.AuthMethod[]): Authenticator & { signedIn: string[] } {
  const signedIn: string[] = [];
  return { signedIn, agentInfo: { protocolVersion: 1, authMethods: methods }, authenticate: async (id) => void signedIn.push(id) };
}

describe('withSignIn', () => {
  it('signs in with the chosen method and sends the request again', async () => {
    const fake = agent([{ id: 'key', name: 'API key' }, { id: 'web', name: 'Browser' }]);
    let calls = 0;
    const offered: string[][] = [];
    const answer = await withSignIn(fake, async (methods) => (offered.push(methods.map((method) => method.id)), 'web'), async () => {
      if (++calls === 1) throw authRequired();
      return 'opened';
    });
    assert.equal(answer, 'opened');
    assert.deepEqual(offered, [['key', 'web']]);
    assert.deepEqual(fake.signedIn, ['web']);
  });

  it('fails without asking when the request fails otherwise', async () => {
    const fake = agent([{ id: 'key', name: 'API key' }]);
    await assert.rejects(withSignIn(fake, () => assert.fail('asked'), async () => { throw Object.assign(new Error('boom'), { code: -32603 }); }), /boom/);
    assert.deepEqual(fake.signedIn, []);
  });

  it('says so when no method was chosen, or none is offered, or a terminal sign-in is all there is', async () => {
    await assert.rejects(withSignIn(agent([{ id: 'key', name: 'API key' }]), async () => undefined, async () => { throw authRequired(); }), /no way to sign in was chosen/);
    await assert.rejects(withSignIn(agent([]), async () => 'key', async () => { throw authRequired(); }), /offers no way to/);
    await assert.rejects(withSignIn(agent([{ id: 't', name: 'In a terminal', type: 'terminal' }]), async () => 't', async () => { throw authRequired(); }), /offers no way to/);
  });

  it(`stops after ${MAX_SIGN_INS} sign-ins the agent does not accept`, async () => {
    const fake = agent([{ id: 'key', name: 'API key' }]);
    await assert.rejects(withSignIn(fake, async () => 'key', async () => { throw authRequired(); }), /still asks to sign in/);
    assert.equal(fake.signedIn.length, MAX_SIGN_INS);
  });
});
