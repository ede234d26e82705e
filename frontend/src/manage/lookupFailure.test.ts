import { describe, expect, it } from 'vitest';
import { SlotsApi } from '../api/slotsApi';
import { translator } from '../i18n/messages';
import { lookupFailure, lookupFailureText } from './lookupFailure';

const code = 'ABCDE-FGHJK';
const proof = { kind: 'phone', value: '0905123456' } as const;

/** What the manage page makes of the API's answer to a lookup. */
async function failureFor(answer: () => Response) {
  const api = new SlotsApi('', (async () => answer()) as typeof fetch);
  try {
    await api.find(code, proof);
  } catch (e) {
    return lookupFailure(e, code);
  }
  throw new Error('the lookup succeeded');
}

const problem = (status: number, body: object) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json' } });

describe('a failed reservation lookup', () => {
  it('tells the owner of a cancelled reservation that it was cancelled, in Slovak and English', async () => {
    const failure = await failureFor(problem(410, { status: 410, code: 'reservation-cancelled', state: 'cancelled', title: 'Gone' }));
    expect(failure).toEqual({ kind: 'cancelled', code });
    expect(lookupFailureText(failure, translator('sk'))).toBe('Rezervácia ABCDE-FGHJK bola zrušená, tento termín už nemáte.');
    expect(lookupFailureText(failure, translator('en'))).toBe('Reservation ABCDE-FGHJK was cancelled; you no longer have this appointment.');
  });

  it('tells anyone else only that nothing matches', async () => {
    const failure = await failureFor(problem(404, { status: 404, code: 'reservation-not-found', title: 'Not Found' }));
    expect(failure.kind).toBe('problem');
    expect(lookupFailureText(failure, translator('sk'))).toBe('Rezervácia s týmto kódom a údajmi neexistuje.');
    expect(lookupFailureText(failure, translator('en'))).toBe('No reservation matches this code and these details.');
  });

  it('says a code locked by wrong proofs is locked, at once, instead of waiting out its hour as a busy server', async () => {
    let calls = 0;
    const failure = await failureFor(() => {
      calls++;
      return new Response(JSON.stringify({ status: 429, code: 'wrong-proof-limit', title: 'Too Many Requests' }),
        { status: 429, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '3600' } });
    });
    expect(calls).toBe(1);
    expect(failure.kind).toBe('problem');
    expect(lookupFailureText(failure, translator('sk'))).toBe('K tomuto kódu prišlo priveľa nesprávnych údajov. Z bezpečnostných dôvodov ho skúste znova o hodinu.');
    expect(lookupFailureText(failure, translator('en'))).toBe('This code has had too many wrong details. For your safety, try again in an hour.');
  });

  it('asks to try again when the API cannot be reached', async () => {
    const failure = await failureFor(() => { throw new TypeError('Failed to fetch'); });
    expect(failure).toEqual({ kind: 'unreachable' });
    expect(lookupFailureText(failure, translator('en'))).toBe('Could not load the data. Please try again.');
  });
});
